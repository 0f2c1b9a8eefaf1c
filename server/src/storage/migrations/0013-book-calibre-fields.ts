import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * What Calibre has beyond the book's first fields: series and its index, tags, languages,
 * rating, every identifier and whether there is a cover. Lists and the identifiers are JSON text,
 * as `formats` is; books already stored have none until the next load.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const real = sql.raw(dialect === 'postgres' ? 'double precision' : 'real');
  const columns = [
    sql`series text`,
    sql`series_index ${real}`,
    sql`tags text not null default '[]'`,
    sql`languages text not null default '[]'`,
    sql`rating ${real}`,
    sql`identifiers text not null default '{}'`,
    sql`has_cover integer not null default 0`,
  ];
  for (const column of columns) await sql`alter table books add column ${column}`.execute(db);
}
