import { describe, expect, it } from 'vitest';
import { formatTaskTime, fromLocalInput, toLocalInput } from './task-time.ts';

describe('task times in the profile zone', () => {
  it('reads a datetime-local value in the profile zone, as ISO with its offset', () => {
    expect(fromLocalInput('2026-03-09T09:00', 'America/New_York')).toBe('2026-03-09T09:00:00-04:00');
    expect(fromLocalInput('2026-03-06T09:00', 'America/New_York')).toBe('2026-03-06T09:00:00-05:00');
    expect(fromLocalInput('2026-07-01T18:30', 'Europe/London')).toBe('2026-07-01T18:30:00+01:00');
  });

  it('ignores incomplete input', () => {
    expect(fromLocalInput('', 'UTC')).toBeNull();
    expect(fromLocalInput('2026-03-09', 'UTC')).toBeNull();
    expect(fromLocalInput('2026-03-09T', 'UTC')).toBeNull();
  });

  it('shows a UTC time in the profile zone, and fills the editor with it', () => {
    expect(formatTaskTime('2026-03-09T13:00:00.000Z', 'America/New_York')).toBe('2026-03-09 09:00 EDT');
    expect(formatTaskTime(null, 'UTC')).toBe('—');
    expect(toLocalInput('2026-03-09T13:00:00.000Z', 'America/Los_Angeles')).toBe('2026-03-09T06:00');
    expect(toLocalInput(null, 'UTC')).toBe('');
  });
});
