import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/**
 * Kysely's SqliteDialect expects better-sqlite3's interface; `node:sqlite` differs in two ways:
 * a statement has no `reader` flag (a statement that returns columns is a reader) and
 * parameters are passed spread rather than as an array.
 */
export function nodeSqliteDatabase(file: string): SqliteDatabase & { raw: DatabaseSync } {
  const raw = new DatabaseSync(file);
  raw.exec('PRAGMA journal_mode = WAL');
  raw.exec('PRAGMA foreign_keys = ON');
  raw.exec('PRAGMA synchronous = NORMAL');
  raw.exec('PRAGMA busy_timeout = 5000');
  return {
    raw,
    close: () => raw.close(),
    prepare(sql): SqliteStatement {
      const statement = raw.prepare(sql);
      const parameters = (values: ReadonlyArray<unknown>) => values as SQLInputValue[];
      return {
        reader: statement.columns().length > 0,
        all: (values) => statement.all(...parameters(values)),
        run: (values) => statement.run(...parameters(values)),
        iterate: (values) => statement.iterate(...parameters(values)),
      };
    },
  };
}
