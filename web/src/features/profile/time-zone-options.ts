import { US_TIME_ZONES } from '../../../../contract/timezones.ts';

export interface TimeZoneOption {
  value: string;
  label: string;
}

const usZones: TimeZoneOption[] = US_TIME_ZONES.map(({ value, label }) => ({ value, label: `${label} (${value})` }));

/** The spec's two US zones first, then every zone the browser knows, each once. */
export function timeZoneOptions(knownZones: readonly string[], current: string | null): TimeZoneOption[] {
  const listed = new Set(usZones.map((option) => option.value));
  const others = knownZones.filter((zone) => !listed.has(zone));
  // The user's zone may be a name the list leaves out, such as UTC or an alias; it must still show as chosen.
  if (current !== null && !listed.has(current) && !others.includes(current)) others.unshift(current);
  return [...usZones, ...others.map((zone) => ({ value: zone, label: zone }))];
}
