import { type Kysely, sql } from 'kysely';
import type { Database } from '../storage/schema.ts';
import type { Dialect } from '../storage/database.ts';
import { fromRow, identifierKey } from './book-row.ts';
import { bookPages } from './books.search.ts';

const PAGE = 1000;

/**
 * Works out every stored book's identifier key again, a page at a time: for a catalogue loaded
 * before a change to what the key is (a migration marks it stale). The books' words need nothing:
 * the search index (search-index/) reads them from the rows whenever it is built.
 */
export async function reindexCatalogue(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  for await (const rows of bookPages(db, PAGE)) {
    const keys = rows.map((row) => ({ seq: row.seq, key: identifierKey(fromRow(row).identifier) }));
    if (dialect === 'postgres') {
      await sql`update books set identifier_key = u.identifier_key
        from unnest(${keys.map(({ seq }) => seq)}::bigint[], ${keys.map(({ key }) => key)}::text[]) as u(seq, identifier_key)
        where books.seq = u.seq`.execute(db);
    } else {
      const values = keys.map(({ seq, key }) => sql`(cast(${seq} as integer), ${key})`);
      await sql`with keyed (seq, identifier_key) as (values ${sql.join(values)})
        update books set identifier_key = (select identifier_key from keyed where keyed.seq = books.seq)
        where seq in (select seq from keyed)`.execute(db);
    }
  }
}
