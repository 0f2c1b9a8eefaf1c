import { type InsertQueryBuilder, type InsertResult, type Kysely, sql } from 'kysely';
import type { Dialect } from './database.ts';
import type { Database } from './schema.ts';

/**
 * Rows one multi-row statement writes or names. SQLite binds at most 32,766 values to a statement
 * and PostgreSQL 65,535; the widest row we write binds 9, so a thousand stay far below both.
 */
const ROWS_PER_STATEMENT = 1000;

/** The rows in slices that each fit one statement. */
export function* statementSlices<T>(rows: readonly T[]): Generator<T[]> {
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) yield rows.slice(start, start + ROWS_PER_STATEMENT);
}

/**
 * Rows as PostgreSQL's `unnest` of one array per column, for `INSERT … SELECT`: a statement of a
 * few parameters however many rows, which PostgreSQL parses and plans in a moment, where a VALUES
 * list binds each value of each row as a parameter of its own (an import's batch of 500 bookmarks:
 * 4,500 of them). `types` names each column's PostgreSQL type, in the order of the table's columns
 * as the INSERT lists them.
 */
export function unnestRows<Row extends Record<string, unknown>>(rows: readonly Row[], types: { [Column in keyof Row & string]: string }) {
  const columns = Object.keys(types) as Array<keyof Row & string>;
  const arrays = columns.map((column) => sql`${rows.map((row) => row[column] ?? null)}::${sql.raw(types[column])}[]`);
  return { columns, select: sql`select * from unnest(${sql.join(arrays)})` };
}

/**
 * The INSERTs that write `rows` into `table`: on PostgreSQL one, of the columns' arrays
 * (`unnestRows`); on SQLite, in process, a VALUES list per slice of rows. The caller adds what
 * it needs (ON CONFLICT, RETURNING) and runs each.
 */
export function insertStatements<Table extends keyof Database & string, Row extends Record<string, unknown>>(
  db: Kysely<Database>,
  dialect: Dialect,
  table: Table,
  rows: readonly Row[],
  types: { [Column in keyof Row & string]: string },
): Array<InsertQueryBuilder<Database, Table, InsertResult>> {
  if (rows.length === 0) return [];
  if (dialect === 'postgres') {
    const { columns, select } = unnestRows(rows, types);
    return [db.insertInto(table).columns(columns as never).expression(select as never)];
  }
  return [...statementSlices(rows)].map((slice) => db.insertInto(table).values(slice as never));
}
