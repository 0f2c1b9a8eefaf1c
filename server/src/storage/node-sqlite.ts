import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/**
 * Kysely's SqliteDialect expects better-sqlite3's interface; `node:sqlite` differs in two ways:
 * a statement has no `reader` flag (a statement that returns columns is a reader) and
 * parameters are passed spread rather than as an array.
 */
/** Statements kept prepared; a few dozen distinct statements are in use, so this is never reached in practice. */
const PREPARED_STATEMENTS = 500;

export function nodeSqliteDatabase(file: string): SqliteDatabase & { raw: DatabaseSync } {
  const raw = new DatabaseSync(file);
  raw.exec('PRAGMA journal_mode = WAL');
  raw.exec('PRAGMA foreign_keys = ON');
  raw.exec('PRAGMA synchronous = NORMAL');
  raw.exec('PRAGMA busy_timeout = 5000');
  // Preparing costs as much as running a short query; `all` and `run` finish before they return,
  // so one prepared statement serves every call. `iterate` gets its own, since two iterations of
  // one statement cannot interleave.
  const prepared = new Map<string, StatementSync>();
  const reuse = (sql: string) => {
    let statement = prepared.get(sql);
    if (!statement) {
      if (prepared.size === PREPARED_STATEMENTS) prepared.clear();
      statement = raw.prepare(sql);
      prepared.set(sql, statement);
    }
    return statement;
  };
  const parameters = (values: ReadonlyArray<unknown>) => values as SQLInputValue[];
  return {
    raw,
    close: () => raw.close(),
    prepare(sql): SqliteStatement {
      const statement = reuse(sql);
      return {
        reader: statement.columns().length > 0,
        all: (values) => statement.all(...parameters(values)),
        run: (values) => statement.run(...parameters(values)),
        iterate: (values) => raw.prepare(sql).iterate(...parameters(values)),
      };
    },
  };
}
