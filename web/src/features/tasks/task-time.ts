import { DateTime } from 'luxon';

/** The zone times show in: the profile's, else the browser's own. */
export function displayZone(profileZone: string | null): string {
  return profileZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** An ISO time in the profile's zone, for reading; a dash for none. */
export function formatTaskTime(iso: string | null, zone: string): string {
  if (iso === null) return '—';
  const time = DateTime.fromISO(iso, { zone: 'utc' }).setZone(zone);
  return time.isValid ? time.toFormat('yyyy-MM-dd HH:mm ZZZZ', { locale: 'en-US' }) : iso;
}

/** An ISO time as a datetime-local input's value, in the profile's zone. */
export function toLocalInput(iso: string | null, zone: string): string {
  if (iso === null) return '';
  const time = DateTime.fromISO(iso, { zone: 'utc' }).setZone(zone);
  return time.isValid ? time.toFormat("yyyy-MM-dd'T'HH:mm") : '';
}

/**
 * A datetime-local value read in the profile's zone, as an ISO timestamp with its offset
 * (docs/behaviour/tasks-and-notices.md); null for incomplete input, which the editor ignores.
 */
export function fromLocalInput(value: string, zone: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) return null;
  const time = DateTime.fromISO(value, { zone });
  return time.isValid ? time.toISO({ suppressMilliseconds: true }) : null;
}
