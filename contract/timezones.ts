/** US East and US West, offered first in the profile's timezone select (docs/behaviour/profile.md). */
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
