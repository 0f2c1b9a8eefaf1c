import { US_TIME_ZONES } from '../../../../contract/timezones.ts';

export interface TimeZoneOption {
  value: string;
  label: string;
}

/** Not in `Intl.supportedValuesOf('timeZone')`, which lists only zones with a place, but a zone many people keep. */
export const UTC = 'UTC';

const usZones: TimeZoneOption[] = US_TIME_ZONES.map(({ value, label }) => ({ value, label: `${label} (${value})` }));

/**
 * The spec's two US zones first, then UTC, then every zone the browser knows in its own
 * (alphabetical) order, each once; the user's zone is always among them, even a name the list
 * leaves out (an alias such as Asia/Calcutta, set through the API), placed after UTC.
 */
export function timeZoneOptions(knownZones: readonly string[], current: string | null): TimeZoneOption[] {
  const first = [...usZones, { value: UTC, label: UTC }];
  const listed = new Set(first.map((option) => option.value));
  const others = knownZones.filter((zone) => !listed.has(zone));
  if (current !== null && !listed.has(current) && !others.includes(current)) others.unshift(current);
  return [...first, ...others.map((zone) => ({ value: zone, label: zone }))];
}

/**
 * What a search for `typed` matches: every word, in any case, anywhere in the label, with
 * underscores and slashes read as spaces, so that "new york" finds America/New_York and
 * "europe par" Europe/Paris.
 */
export function matchesTimeZone(option: TimeZoneOption, typed: string): boolean {
  const words = (text: string) => text.toLowerCase().replace(/[_/]/g, ' ');
  const label = words(option.label);
  return words(typed)
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => label.includes(word));
}
