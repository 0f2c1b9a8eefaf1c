import { type Kysely, sql } from 'kysely';
import { searchWords } from '../../search/search-text.ts';

const BACKFILL_PAGE = 1000;

/**
 * The title's length in words, by which both databases rank (books.search.ts): SQLite's BM25
 * scores every match of a contentless, column-only index 0, so searches came back in catalogue
 * order until now.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table books add column title_words integer not null default 0`.execute(db);
  for (let after = 0; ; ) {
    const { rows } = await sql<{ seq: number; title: string; author: string }>`
      select seq, title, author from books where seq > ${after} order by seq limit ${BACKFILL_PAGE}`.execute(db);
    if (rows.length === 0) return;
    // A statement a page rather than a row: a catalogue of a million books migrates in seconds.
    const words = rows.map((row) => sql`(cast(${row.seq} as bigint), cast(${searchWords(row.title).length} as integer))`);
    await sql`with counted (seq, words) as (values ${sql.join(words)})
      update books set title_words = (select words from counted where counted.seq = books.seq)
      where seq in (select seq from counted)`.execute(db);
    if (rows.length < BACKFILL_PAGE) return;
    after = rows[rows.length - 1]!.seq;
  }
}
