import { type Kysely, sql } from 'kysely';
import type { CatalogueBook } from '../../../contract/books.ts';
import type { Database } from '../storage/schema.ts';
import { weightedFields } from '../search/tsvector.ts';
import {
  BOOK_COLUMNS,
  type BookRow,
  fromRow,
  identifierKey,
  STORED_COLUMN_NAMES,
  STORED_COLUMNS,
  type StoredBook,
  storedRow,
} from './book-row.ts';
import {
  type Catalogue,
  catalogueReads,
  formatFilter,
  libraryFolderRead,
  libraryFolderWrite,
  newCatalogueVersion,
  pageOfSearch,
} from './books.search.ts';
import { RANKED_MATCH_LIMIT, ranksTitleMatchesFirst } from './book-ranking.ts';
import { indexedText } from './indexed-text.ts';
import { libraryFolderTracker } from './library-folder.ts';

const COLUMNS = BOOK_COLUMNS.join(', ');
const BATCH = 1000;

/** Each field is a weight class, so that a query can be limited to fields, and to the title for its ranking. */
const FIELDS = weightedFields({ title: 'A', author: 'B', comment: 'C', file_path: 'D' });

const bookTsvector = (book: CatalogueBook) => FIELDS.vector(indexedText(book));

/**
 * Books written in one statement, each column an array of the batch's values (`unnest`), and a
 * book already there updated: the column list and the arrays are built from one list of columns.
 */
function upsertBooks(books: CatalogueBook[]) {
  const rows = books.map(storedRow);
  const columns = sql.raw(STORED_COLUMN_NAMES.join(', '));
  const arrays = STORED_COLUMN_NAMES.map(
    (column: keyof StoredBook) => sql`${rows.map((row) => row[column])}::${sql.raw(STORED_COLUMNS[column])}[]`,
  );
  const updates = STORED_COLUMN_NAMES.filter((column) => column !== 'id').map((column) => `${column} = excluded.${column}`);
  return sql`
    insert into books (${columns}, search)
    select ${columns}, search_text::tsvector from unnest(${sql.join(arrays)}, ${books.map(bookTsvector)}::text[])
      as u(${columns}, search_text)
    on conflict (id) do update set ${sql.raw(updates.join(', '))}, search = excluded.search`;
}

export function createPostgresCatalogue(db: Kysely<Database>): Catalogue {
  const search: Catalogue['search'] = async (query) => {
    const byFormat = formatFilter(query.format);
    if (query.terms.length === 0) {
      const total = await sql<{ n: number }>`select count(*) as n from books where true ${byFormat}`.execute(db);
      const page = await sql<BookRow>`
        select ${sql.raw(COLUMNS)} from books where true ${byFormat}
        order by updated desc nulls last, seq limit ${query.size} offset ${query.from}`.execute(db);
      return { total: Number(total.rows[0]?.n ?? 0), books: page.rows.map(fromRow) };
    }
    const tsquery = FIELDS.query(query.terms, query.fields);
    // A book matches by its words or, whatever fields are chosen, by its identifier typed whole.
    const matches = query.identifier
      ? sql`(search @@ ${tsquery}::tsquery or identifier_key = ${query.identifier})`
      : sql`search @@ ${tsquery}::tsquery`;
    const count = await sql<{ n: number }>`
      select count(*) as n from books where ${matches} ${byFormat}`.execute(db);
    const total = Number(count.rows[0]?.n ?? 0);
    if (total <= query.from) return { total, books: [] };
    const titleTier = ranksTitleMatchesFirst(query)
      ? sql`search @@ ${FIELDS.query(query.terms, ['title'])}::tsquery desc,`
      : sql.raw('');
    const order = total > RANKED_MATCH_LIMIT ? sql`seq desc` : sql`${titleTier} title_words, seq`;
    const page = await sql<BookRow>`
      select ${sql.raw(COLUMNS)} from books where ${matches} ${byFormat}
      order by ${order} limit ${query.size} offset ${query.from}`.execute(db);
    return { total, books: page.rows.map(fromRow) };
  };
  return {
    async close() {},
    ...catalogueReads(db),

    search,

    searchPage: pageOfSearch(search),

    /** One transaction: under MVCC, readers see the old catalogue until it commits. */
    async load(mode, load) {
      return db.transaction().execute(async (trx) => {
        if (mode === 'replace') await sql`delete from books`.execute(trx);
        const stored = mode === 'update' ? await libraryFolderRead(trx).executeTakeFirst() : undefined;
        const library = libraryFolderTracker(stored?.value);
        // Keyed by id: one INSERT … ON CONFLICT may not touch the same row twice.
        let batch = new Map<string, CatalogueBook>();
        const flush = async () => {
          if (batch.size === 0) return;
          const books = [...batch.values()];
          batch = new Map();
          await upsertBooks(books).execute(trx);
        };
        const result = await load(async (book) => {
          library.add(book);
          batch.set(book.id, book);
          if (batch.size >= BATCH) await flush();
        });
        await flush();
        await libraryFolderWrite(trx, library.folder).execute();
        await newCatalogueVersion(trx).execute();
        return result;
      });
    },
  };
}

/** Re-indexing (books.reindex.ts): each stored book's tsvector and identifier key computed again. */
export const postgresReindex = {
  async start() {},

  async page(db: Kysely<Database>, rows: Array<BookRow & { seq: number }>) {
    const books = rows.map(fromRow);
    await sql`update books set search = u.search::tsvector, identifier_key = u.identifier_key
      from unnest(${rows.map((row) => row.seq)}::bigint[], ${books.map((book) => identifierKey(book.identifier))}::text[],
        ${books.map(bookTsvector)}::text[]) as u(seq, identifier_key, search)
      where books.seq = u.seq`.execute(db);
  },
};
