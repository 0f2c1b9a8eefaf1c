// One formatter for every card: making one per call costs more than the card's whole render.
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** An ISO timestamp (or epoch milliseconds) in the reader's own zone and words; a dash when there is none. */
export function formatDateTime(time: string | number | null): string {
  if (time === null) return '—';
  const date = new Date(time);
  return Number.isNaN(date.getTime()) ? String(time) : dateTime.format(date);
}
