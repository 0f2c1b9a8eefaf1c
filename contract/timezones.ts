/** The spec's two zones, offered first in the profile's timezone select (spec §2, §9). */
export const US_TIME_ZONES = [
  { value: 'America/New_York', label: 'US East' },
  { value: 'America/Los_Angeles', label: 'US West' },
] as const;

/** True for any zone name the runtime's IANA database knows, aliases included. */
export function isIanaTimeZone(name: string): boolean {
  if (name.length === 0 || name.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
