import anyAscii from 'any-ascii';
import { type Kysely, sql } from 'kysely';

const BACKFILL_PAGE = 1000;

// A migration is a snapshot: the word count below is search/search-text.ts's `searchWords` as it
// stood when this migration was written, copied so that a later change there leaves it as it ran.

// eslint-disable-next-line no-control-regex -- the whole ASCII range, NUL included
const NON_ASCII_RUN = /[^\u0000-\u007f]+/g;
const LATIN_LETTER_BEYOND_ASCII = /[\p{Script=Latin}&&\p{L}&&\P{ASCII}]/gv;
const ASCII_LETTERS = /^[A-Za-z]+$/;

/** Marks removed, compatibility forms folded, Latin letters without a mark spelled in ASCII; other scripts left alone. */
function foldRun(run: string): string {
  return run
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(LATIN_LETTER_BEYOND_ASCII, (letter) => {
      const ascii = anyAscii(letter);
      return ASCII_LETTERS.test(ascii) ? ascii : letter;
    });
}

/** The number of words in `text`, as search/search-text.ts split it: folded, anything not a letter or digit a separator. */
const wordCount = (text: string) => (text.replace(NON_ASCII_RUN, foldRun).toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).length;

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
    const words = rows.map((row) => sql`(cast(${row.seq} as bigint), cast(${wordCount(row.title)} as integer))`);
    await sql`with counted (seq, words) as (values ${sql.join(words)})
      update books set title_words = (select words from counted where counted.seq = books.seq)
      where seq in (select seq from counted)`.execute(db);
    if (rows.length < BACKFILL_PAGE) return;
    after = rows[rows.length - 1]!.seq;
  }
}
