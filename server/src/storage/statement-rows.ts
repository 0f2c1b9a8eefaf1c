/**
 * Rows one multi-row statement writes or names. SQLite binds at most 32,766 values to a statement
 * and PostgreSQL 65,535; the widest row we write binds 9, so a thousand stay far below both.
 */
const ROWS_PER_STATEMENT = 1000;

/** The rows in slices that each fit one statement. */
export function* statementSlices<T>(rows: readonly T[]): Generator<T[]> {
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) yield rows.slice(start, start + ROWS_PER_STATEMENT);
}
