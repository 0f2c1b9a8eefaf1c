const DAY_MS = 24 * 60 * 60 * 1000;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A range of epoch ms from ISO bounds (already validated): a start is inclusive; an end date
 * includes its whole (UTC) day, an end time its own millisecond.
 */
export function timeRange(start: string | undefined, end: string | undefined): { from?: number; until?: number } {
  return {
    ...(start === undefined ? {} : { from: Date.parse(start) }),
    ...(end === undefined ? {} : { until: Date.parse(end) + (DATE_ONLY.test(end) ? DAY_MS : 1) }),
  };
}
