/**
 * Whether a database error is SQLite's write lock still held by another connection after the
 * connection's wait (`busy_timeout`): a catalogue load of a large library holds it for as long as
 * the load runs, in one transaction. Its primary code SQLITE_BUSY (5), whichever extended code
 * (`errcode & 0xff`). The request changed nothing and may be tried again.
 */
export function isDatabaseBusy(error: unknown): boolean {
  const { errcode } = (error ?? {}) as { errcode?: unknown };
  return typeof errcode === 'number' && (errcode & 0xff) === 5;
}
