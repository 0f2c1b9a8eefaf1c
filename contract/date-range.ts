/**
 * Every date the API accepts lies in this range, in UTC (docs/behaviour/bad-input-and-limits.md). Dates far outside it mean
 * nothing to an organiser's user, and each year they span was once a step of calendar
 * arithmetic on the server; the schedule code is bounded on its own, this keeps input sane.
 */
export const EARLIEST_DATE = '1900-01-01';
export const LATEST_DATE = '2200-12-31';

const EARLIEST_MS = Date.parse(`${EARLIEST_DATE}T00:00:00.000Z`);
const LATEST_MS = Date.parse(`${LATEST_DATE}T23:59:59.999Z`);

export const DATE_RANGE_MESSAGE = `must be between ${EARLIEST_DATE} and ${LATEST_DATE}`;

/** True for epoch milliseconds within the accepted range, both ends included. */
export const isInDateRange = (ms: number): boolean => ms >= EARLIEST_MS && ms <= LATEST_MS;
