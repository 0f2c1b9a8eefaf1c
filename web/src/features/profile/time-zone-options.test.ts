import { describe, expect, it } from 'vitest';
import { matchesTimeZone, timeZoneOptions } from './time-zone-options.ts';

const known = ['Africa/Abidjan', 'America/Los_Angeles', 'America/New_York', 'Europe/Paris'];

describe('the timezone options', () => {
  it('list the two US zones first with their labels, then UTC, then every other zone once', () => {
    expect(timeZoneOptions(known, 'Europe/Paris')).toEqual([
      { value: 'America/New_York', label: 'US East (America/New_York)' },
      { value: 'America/Los_Angeles', label: 'US West (America/Los_Angeles)' },
      { value: 'UTC', label: 'UTC' },
      { value: 'Africa/Abidjan', label: 'Africa/Abidjan' },
      { value: 'Europe/Paris', label: 'Europe/Paris' },
    ]);
  });

  it('offer UTC whatever zone is chosen, and none', () => {
    for (const current of [null, 'UTC', 'Europe/Paris', 'America/New_York']) {
      expect(timeZoneOptions(known, current).filter((option) => option.value === 'UTC')).toHaveLength(1);
    }
  });

  it("include the user's zone when the browser's list leaves it out", () => {
    const values = timeZoneOptions(known, 'Asia/Calcutta').map((option) => option.value);

    expect(values).toEqual(['America/New_York', 'America/Los_Angeles', 'UTC', 'Asia/Calcutta', 'Africa/Abidjan', 'Europe/Paris']);
  });

  it('offer every zone of the running Intl implementation, and UTC', () => {
    const all = Intl.supportedValuesOf('timeZone');
    const values = timeZoneOptions(all, null).map((option) => option.value);

    expect(new Set(values).size).toBe(values.length);
    expect(values.toSorted()).toEqual([...new Set([...all, 'UTC'])].toSorted());
  });
});

describe('the timezone search', () => {
  const options = timeZoneOptions(Intl.supportedValuesOf('timeZone'), null);
  const found = (typed: string) => options.filter((option) => matchesTimeZone(option, typed)).map((option) => option.value);

  it('finds a zone by any part of its name, in any case, with spaces for underscores', () => {
    expect(found('new york')).toEqual(['America/New_York']);
    expect(found('PARIS')).toEqual(['Europe/Paris']);
    expect(found('europe par')).toEqual(['Europe/Paris']);
    expect(found('US East')).toEqual(['America/New_York']);
  });

  it('finds a zone the browser lists under an older name by its current name', () => {
    expect(found('kolkata')).toEqual(['Asia/Calcutta']);
    expect(found('Kyiv')).toEqual(['Europe/Kiev']);
    expect(found('ho chi minh')).toEqual(['Asia/Saigon']);
  });

  it('finds UTC, and every zone for nothing typed', () => {
    expect(found('utc')).toContain('UTC');
    expect(found('  ')).toHaveLength(options.length);
  });
});
