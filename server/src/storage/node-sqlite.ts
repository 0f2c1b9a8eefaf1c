import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** Statements kept prepared; a few dozen distinct statements are in use, so this is never reached in practice. */
const PREPARED_STATEMENTS = 500;

/**
 * A connection's statements, each prepared once: preparing costs as much as running a short
 * query. A statement serves one call at a time (`all` and `run` finish before they return).
 */
export function preparedStatements(connection: DatabaseSync): (sql: string) => StatementSync {
  const prepared = new Map<string, StatementSync>();
  return (sql) => {
    let statement = prepared.get(sql);
    if (!statement) {
      if (prepared.size === PREPARED_STATEMENTS) prepared.clear();
      statement = connection.prepare(sql);
      prepared.set(sql, statement);
    }
    return statement;
  };
}

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
  // `iterate` gets a statement of its own, since two iterations of one statement cannot interleave.
  const reuse = preparedStatements(raw);
  // `columns()` builds a description of every column at each call: asked once a statement.
  const readers = new WeakMap<StatementSync, boolean>();
  const isReader = (statement: StatementSync) => {
    let reader = readers.get(statement);
    if (reader === undefined) {
      reader = statement.columns().length > 0;
      readers.set(statement, reader);
    }
    return reader;
  };
  const parameters = (values: ReadonlyArray<unknown>) => values as SQLInputValue[];
  return {
    raw,
    close: () => raw.close(),
    prepare(sql): SqliteStatement {
      const statement = reuse(sql);
      return {
        reader: isReader(statement),
        all: (values) => statement.all(...parameters(values)),
        run: (values) => statement.run(...parameters(values)),
        iterate: (values) => raw.prepare(sql).iterate(...parameters(values)),
      };
    },
  };
}
