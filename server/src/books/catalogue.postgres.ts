import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { BookSearchField, CatalogueBook } from '../../../contract/books.ts';
import type { Database } from '../storage/schema.ts';
import { searchWords } from '../search/search-text.ts';
import {
  type BookRow,
  type Catalogue,
  formatBit,
  fromRow,
  identifierKey,
  indexedText,
  RANKED_MATCH_LIMIT,
  ranksByTitleLength,
  titleWords,
  toRow,
  VERSION_SETTING,
  BOOK_COLUMNS,
  catalogueReads,
} from './catalogue.ts';

const COLUMNS = BOOK_COLUMNS.join(', ');
const BATCH = 1000;

/** Each field is a weight class, so that a query can be limited to fields, and to the title for its ranking. */
const WEIGHT: Record<BookSearchField, string> = { title: 'A', author: 'B', comment: 'C', file_path: 'D' };
const MAX_POSITION = 16383;

/**
 * The tsvector of a book, written as a literal rather than parsed by to_tsvector: the words are
 * already normalised (letters and digits only), and PostgreSQL's parser would split them by the
 * server's locale, differently from SQLite.
 */
export function tsvectorLiteral(book: CatalogueBook): string {
  const text = indexedText(book);
  const parts: string[] = [];
  let position = 0;
  for (const field of ['title', 'author', 'comment', 'file_path'] as const) {
    for (const word of searchWords(text[field])) {
      if (word.length > 200) continue;
      position = Math.min(position + 1, MAX_POSITION);
      parts.push(`'${word}':${position}${WEIGHT[field]}`);
    }
  }
  return parts.join(' ');
}

function tsqueryLiteral(terms: string[], fields: BookSearchField[]): string {
  const weights = fields.map((field) => WEIGHT[field]).join('');
  return terms.map((term) => `'${term}':*${weights}`).join(' & ');
}

export function createPostgresCatalogue(db: Kysely<Database>): Catalogue {
  return {
    async close() {},
    ...catalogueReads(db),

    async search(query) {
      const mask = formatBit(query.format);
      const formatFilter = mask === 0 ? sql.raw('') : sql`and format_mask & ${mask} != 0`;
      if (query.terms.length === 0) {
        const total = await sql<{ n: number }>`select count(*) as n from books where true ${formatFilter}`.execute(db);
        const page = await sql<BookRow>`
          select ${sql.raw(COLUMNS)} from books where true ${formatFilter}
          order by updated desc nulls last, seq limit ${query.size} offset ${query.from}`.execute(db);
        return { total: Number(total.rows[0]?.n ?? 0), books: page.rows.map(fromRow) };
      }
      const tsquery = tsqueryLiteral(query.terms, query.fields);
      // A book matches by its words or, whatever fields are chosen, by its identifier typed whole.
      const matches = query.identifier
        ? sql`(search @@ ${tsquery}::tsquery or identifier_key = ${query.identifier})`
        : sql`search @@ ${tsquery}::tsquery`;
      const count = await sql<{ n: number }>`
        select count(*) as n from books where ${matches} ${formatFilter}`.execute(db);
      const total = Number(count.rows[0]?.n ?? 0);
      if (total <= query.from) return { total, books: [] };
      const titleTier =
        query.fields.includes('title') && !ranksByTitleLength(query)
          ? sql`search @@ ${tsqueryLiteral(query.terms, ['title'])}::tsquery desc,`
          : sql.raw('');
      const order = total > RANKED_MATCH_LIMIT ? sql`seq desc` : sql`${titleTier} title_words, seq`;
      const page = await sql<BookRow>`
        select ${sql.raw(COLUMNS)} from books where ${matches} ${formatFilter}
        order by ${order} limit ${query.size} offset ${query.from}`.execute(db);
      return { total, books: page.rows.map(fromRow) };
    },

    /** One transaction: under MVCC, readers see the old catalogue until it commits. */
    async load(mode, load) {
      return db.transaction().execute(async (trx) => {
        if (mode === 'replace') await sql`delete from books`.execute(trx);
        // Keyed by id: one INSERT … ON CONFLICT may not touch the same row twice.
        let batch = new Map<string, CatalogueBook>();
        const flush = async () => {
          if (batch.size === 0) return;
          const books = [...batch.values()];
          batch = new Map();
          const rows = books.map(toRow);
          const column = <K extends keyof typeof rows[number]>(key: K) => rows.map((row) => row[key]);
          await sql`
            insert into books (${sql.raw(COLUMNS)}, title_words, identifier_key, search)
            select ${sql.raw(COLUMNS)}, title_words, identifier_key, search_text::tsvector from unnest(
              ${column('id')}::text[], ${column('title')}::text[], ${column('author')}::text[],
              ${column('identifier')}::text[], ${column('publish_date')}::text[], ${column('publisher')}::text[],
              ${column('created')}::bigint[], ${column('updated')}::bigint[], ${column('comment')}::text[],
              ${column('path')}::text[], ${column('formats')}::text[], ${column('format_mask')}::int[],
              ${books.map(titleWords)}::int[], ${books.map((book) => identifierKey(book.identifier))}::text[],
              ${books.map(tsvectorLiteral)}::text[]
            ) as u(${sql.raw(COLUMNS)}, title_words, identifier_key, search_text)
            on conflict (id) do update set
              title = excluded.title, author = excluded.author, identifier = excluded.identifier,
              publish_date = excluded.publish_date, publisher = excluded.publisher, created = excluded.created,
              updated = excluded.updated, comment = excluded.comment, path = excluded.path,
              formats = excluded.formats, format_mask = excluded.format_mask, title_words = excluded.title_words,
              identifier_key = excluded.identifier_key, search = excluded.search`.execute(trx);
        };
        const result = await load(async (book) => {
          batch.set(book.id, book);
          if (batch.size >= BATCH) await flush();
        });
        await flush();
        await trx
          .insertInto('settings')
          .values({ key: VERSION_SETTING, value: randomUUID() })
          .onConflict((oc) => oc.column('key').doUpdateSet({ value: (eb) => eb.ref('excluded.value') }))
          .execute();
        return result;
      });
    },
  };
}
