import { describe, expect, it } from 'vitest';
import { timeZoneOptions } from './time-zone-options.ts';

const known = ['Africa/Abidjan', 'America/Los_Angeles', 'America/New_York', 'Europe/Paris'];

describe('the timezone options', () => {
  it('list the two US zones first with their labels, then every other zone once', () => {
    expect(timeZoneOptions(known, 'Europe/Paris')).toEqual([
      { value: 'America/New_York', label: 'US East (America/New_York)' },
      { value: 'America/Los_Angeles', label: 'US West (America/Los_Angeles)' },
      { value: 'Africa/Abidjan', label: 'Africa/Abidjan' },
      { value: 'Europe/Paris', label: 'Europe/Paris' },
    ]);
  });

  it("include the user's zone when the browser's list leaves it out", () => {
    const values = timeZoneOptions(known, 'UTC').map((option) => option.value);

    expect(values).toEqual(['America/New_York', 'America/Los_Angeles', 'UTC', 'Africa/Abidjan', 'Europe/Paris']);
  });

  it('offer every zone of the running Intl implementation', () => {
    const all = Intl.supportedValuesOf('timeZone');
    const values = timeZoneOptions(all, null).map((option) => option.value);

    expect(new Set(values).size).toBe(values.length);
    expect(values.toSorted()).toEqual(all.toSorted());
  });
});
