import { type Kysely, sql } from 'kysely';
import type { Database } from '../storage/schema.ts';
import type { Dialect } from '../storage/database.ts';
import { BOOK_COLUMNS, type BookRow, fromRow, identifierKey } from './catalogue.ts';
import { tsvectorLiteral } from './catalogue.postgres.ts';
import { ftsText } from './catalogue.sqlite.ts';

const PAGE = 1000;

/**
 * Indexes every stored book again, a page at a time: for a catalogue loaded before a change to
 * what its words are (their folding, the part of a path indexed, the identifier key). A million
 * books take about as long as loading them.
 */
export async function reindexCatalogue(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  if (dialect === 'sqlite') {
    await sql`insert into books_fts_meta (books_fts_meta) values ('delete-all')`.execute(db);
    await sql`insert into books_fts_text (books_fts_text) values ('delete-all')`.execute(db);
  }
  for (let after = 0; ; ) {
    const rows = await db
      .selectFrom('books')
      .select(['seq', ...BOOK_COLUMNS])
      .where('seq', '>', after)
      .orderBy('seq')
      .limit(PAGE)
      .execute();
    if (rows.length === 0) return;
    await (dialect === 'sqlite' ? reindexSqlitePage(db, rows) : reindexPostgresPage(db, rows));
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1]!.seq;
  }
}

type SeqRow = BookRow & { seq: number };

async function reindexSqlitePage(db: Kysely<Database>, rows: SeqRow[]) {
  const books = rows.map((row) => ({ seq: row.seq, book: fromRow(row) }));
  const words = books.map(({ seq, book }) => ({ seq, ...ftsText(book) }));
  await sql`insert into books_fts_meta (rowid, title, author)
    values ${sql.join(words.map(({ seq, meta }) => sql`(${seq}, ${meta[0]}, ${meta[1]})`))}`.execute(db);
  await sql`insert into books_fts_text (rowid, comment, file_path)
    values ${sql.join(words.map(({ seq, text }) => sql`(${seq}, ${text[0]}, ${text[1]})`))}`.execute(db);
  const keys = books.map(({ seq, book }) => sql`(cast(${seq} as integer), ${identifierKey(book.identifier)})`);
  await sql`with keyed (seq, identifier_key) as (values ${sql.join(keys)})
    update books set identifier_key = (select identifier_key from keyed where keyed.seq = books.seq)
    where seq in (select seq from keyed)`.execute(db);
}

async function reindexPostgresPage(db: Kysely<Database>, rows: SeqRow[]) {
  const books = rows.map(fromRow);
  await sql`update books set search = u.search::tsvector, identifier_key = u.identifier_key
    from unnest(${rows.map((row) => row.seq)}::bigint[], ${books.map((book) => identifierKey(book.identifier))}::text[],
      ${books.map(tsvectorLiteral)}::text[]) as u(seq, identifier_key, search)
    where books.seq = u.seq`.execute(db);
}
