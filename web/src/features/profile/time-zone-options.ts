import { US_TIME_ZONES } from '../../../../contract/timezones.ts';

export interface TimeZoneOption {
  value: string;
  label: string;
}

/** Not in `Intl.supportedValuesOf('timeZone')`, which lists only zones with a place, but a zone many people keep. */
export const UTC = 'UTC';

const usZones: TimeZoneOption[] = US_TIME_ZONES.map(({ value, label }) => ({ value, label: `${label} (${value})` }));

/**
 * US East and US West first, then UTC, then every zone the browser knows in its own
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
 * The IANA's current names of the zones that ICU, and so every browser's Intl, still lists under
 * an older name (CLDR keeps its ids stable): a search for "Kolkata" or "Kyiv" finds them.
 */
const CURRENT_NAMES: Readonly<Record<string, string>> = {
  'Africa/Asmera': 'Africa/Asmara',
  'America/Buenos_Aires': 'America/Argentina/Buenos_Aires',
  'America/Catamarca': 'America/Argentina/Catamarca',
  'America/Coral_Harbour': 'America/Atikokan',
  'America/Cordoba': 'America/Argentina/Cordoba',
  'America/Godthab': 'America/Nuuk',
  'America/Indianapolis': 'America/Indiana/Indianapolis',
  'America/Jujuy': 'America/Argentina/Jujuy',
  'America/Louisville': 'America/Kentucky/Louisville',
  'America/Mendoza': 'America/Argentina/Mendoza',
  'Asia/Calcutta': 'Asia/Kolkata',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Rangoon': 'Asia/Yangon',
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Atlantic/Faeroe': 'Atlantic/Faroe',
  'Europe/Kiev': 'Europe/Kyiv',
  'Pacific/Enderbury': 'Pacific/Kanton',
  'Pacific/Ponape': 'Pacific/Pohnpei',
  'Pacific/Truk': 'Pacific/Chuuk',
};

/** An option's text as a search reads it: lower case, underscores and slashes as spaces. */
const searchText = (text: string) => text.toLowerCase().replace(/[_/]/g, ' ');

/**
 * What a search for `typed` matches: every word, in any case, anywhere in the label or the
 * zone's current name, so that "new york" finds America/New_York, "europe par" Europe/Paris
 * and "kolkata" Asia/Calcutta.
 */
export function matchesTimeZone(option: TimeZoneOption, typed: string): boolean {
  const text = searchText(`${option.label} ${CURRENT_NAMES[option.value] ?? ''}`);
  return searchText(typed)
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => text.includes(word));
}
