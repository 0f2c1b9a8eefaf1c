/**
 * Whether a database error is a unique index refusing a row: two requests that each checked a
 * value was free, then both wrote it, and the second lost. PostgreSQL names it by SQLSTATE 23505,
 * node:sqlite by SQLite's extended code SQLITE_CONSTRAINT_UNIQUE (2067).
 */
export function isUniqueViolation(error: unknown): boolean {
  const { code, errcode } = (error ?? {}) as { code?: unknown; errcode?: unknown };
  return code === '23505' || errcode === 2067;
}
