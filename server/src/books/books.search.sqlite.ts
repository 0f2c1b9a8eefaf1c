import {
  DummyDriver,
  Kysely,
  type RawBuilder,
  sql,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import type { BookSearchField, CatalogueBook } from '../../../contract/books.ts';
import type { Database } from '../storage/schema.ts';
import { fts5Match } from '../search/fts5-query.ts';
import { foldDiacritics } from '../search/search-text.ts';
import { BOOK_COLUMNS, type BookRow, fromRow, identifierKey, STORED_COLUMN_NAMES, storedRow } from './book-row.ts';
import {
  type Catalogue,
  type CatalogueQuery,
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
import { type CatalogueWriter, openCatalogueWriter, type WrittenBook } from './catalogue-writer.ts';
import { createSearchPool } from './search-pool.ts';
import type { SearchPlan } from './search-plan.ts';

const COLUMNS = BOOK_COLUMNS.join(', ');

/**
 * Two word indexes: titles and authors (short, searched by default) apart from comments and file
 * paths (long), so that a title search never walks the postings of every comment.
 */
const INDEXES = {
  meta: { table: 'books_fts_meta', columns: ['title', 'author'] },
  text: { table: 'books_fts_text', columns: ['comment', 'file_path'] },
} as const satisfies Record<string, { table: string; columns: readonly BookSearchField[] }>;
type IndexName = keyof typeof INDEXES;
const INDEX_NAMES = Object.keys(INDEXES) as IndexName[];

/** FTS5 query text of one index: each term a prefix, within the chosen fields it holds. */
function termsIn(name: IndexName, fields: readonly string[], terms: string[]): string {
  const all = INDEXES[name].columns;
  return fts5Match(terms, all.filter((column) => fields.includes(column)), all);
}

const table = (name: IndexName) => sql.raw(INDEXES[name].table);

/** What the word indexes are given for a book: its fields' text, folded; FTS5's tokenizer splits it into words. */
function foldedText(book: CatalogueBook): Record<BookSearchField, string> {
  const text = indexedText(book);
  return {
    title: foldDiacritics(text.title),
    author: foldDiacritics(text.author),
    comment: foldDiacritics(text.comment),
    file_path: foldDiacritics(text.file_path),
  };
}

/** Empties a contentless index at once (FTS5's own command). */
const emptyIndex = (name: IndexName) => `insert into ${INDEXES[name].table} (${INDEXES[name].table}) values ('delete-all')`;

/** A book's row as the writer binds it: the id first, so that `?1` names it in every statement. */
const ROW_COLUMNS = ['id', ...STORED_COLUMN_NAMES.filter((column) => column !== 'id')] as const;

/** A load's statements (catalogue-writer.ts), each bound by position. */
const WRITES = {
  insert: `insert into books (${ROW_COLUMNS.join(', ')})
    values (${ROW_COLUMNS.map((_, index) => `?${index + 1}`).join(', ')}) on conflict (id) do nothing`,
  find: 'select seq from books where id = ?1',
  update: `update books set ${ROW_COLUMNS.map((column, index) => `${column} = ?${index + 1}`).slice(1).join(', ')} where id = ?1`,
  unindex: INDEX_NAMES.map((name) => `delete from ${INDEXES[name].table} where rowid = ?`),
  index: INDEX_NAMES.map((name) => {
    const columns = INDEXES[name].columns;
    return `insert into ${INDEXES[name].table} (rowid, ${columns.join(', ')}) values (?, ${columns.map(() => '?').join(', ')})`;
  }),
};

/** A book as the writer is given it: its row's values, then its folded text for each index. */
function writtenBook(book: CatalogueBook): WrittenBook {
  const row = storedRow(book);
  const folded = foldedText(book);
  return [ROW_COLUMNS.map((column) => row[column]), ...INDEX_NAMES.map((name) => INDEXES[name].columns.map((column) => folded[column]))];
}

const PREFIXED_COLUMNS = sql.raw(COLUMNS.replace(/(\w+)/g, 'b.$1'));

/**
 * The books that have every term in at least one chosen field, as one `rowid` column. One index
 * can say so at once; across the two, each term's books are those of either index, and the books
 * of every term are kept.
 */
function wordHits(query: Pick<CatalogueQuery, 'terms' | 'fields'>, only: IndexName | undefined): RawBuilder<unknown> {
  if (only) {
    return sql`select rowid from ${table(only)} where ${table(only)} match ${termsIn(only, query.fields, query.terms)}`;
  }
  // Each term's union is a subquery of its own: SQLite gives UNION and INTERSECT one precedence,
  // left to right, so "m1 union t1 intersect m2 union t2" would add t2's books without the AND.
  return sql.join(
    query.terms.map(
      (term) => sql`select rowid from (select rowid from books_fts_meta where books_fts_meta match ${termsIn('meta', query.fields, [term])}
        union select rowid from books_fts_text where books_fts_text match ${termsIn('text', query.fields, [term])})`,
    ),
    sql` intersect `,
  );
}

/**
 * The count and page statements of a search with terms, ranked as books.search.ts says. `total` is
 * the count's answer, known before the page is asked for. With `identifier`, the books whose
 * identifier it is are added to the word matches.
 */
function searchStatements(query: Omit<CatalogueQuery, 'identifier'> & { identifier?: string }) {
  const used = INDEX_NAMES.filter((name) =>
    INDEXES[name].columns.some((column) => query.fields.includes(column)),
  );
  const byFormat = formatFilter(query.format, 'b.format_mask');
  const only = used.length === 1 ? used[0]! : undefined;
  const words = wordHits(query, only);
  const hits = query.identifier ? sql`${words} union select seq from books where identifier_key = ${query.identifier}` : words;
  // Books whose title holds every term come first; a search of titles alone needs no second look.
  // As `not in`, the title matches are looked up once; as a join they were looked up per hit.
  const rank = ranksTitleMatchesFirst(query)
    ? sql`h.rowid not in (select rowid from books_fts_meta where books_fts_meta match ${termsIn('meta', ['title'], query.terms)}),
        b.title_words, b.seq`
    : sql`b.title_words, b.seq`;
  return {
    count:
      query.format === ''
        ? sql<{ n: number }>`select count(*) as n from (${hits})`
        : sql<{ n: number }>`select count(*) as n from (${hits}) h join books b on b.seq = h.rowid where 1 = 1 ${byFormat}`,
    page: (total: number) => {
      if (total <= RANKED_MATCH_LIMIT) {
        return sql<BookRow>`
          select ${PREFIXED_COLUMNS} from (${hits}) h join books b on b.seq = h.rowid
          where 1 = 1 ${byFormat}
          order by ${rank} limit ${query.size} offset ${query.from}`;
      }
      // Too many to rank: newest-loaded first, read from the index's end and stopped at the page.
      if (only && query.format === '') {
        return sql<BookRow>`
          select ${PREFIXED_COLUMNS} from (${hits} order by rowid desc limit ${query.size} offset ${query.from}) h
          join books b on b.seq = h.rowid order by h.rowid desc`;
      }
      return sql<BookRow>`
        select ${PREFIXED_COLUMNS} from (${hits}) h join books b on b.seq = h.rowid
        where 1 = 1 ${byFormat} order by h.rowid desc limit ${query.size} offset ${query.from}`;
    },
  };
}

/** Compiles statements for the search workers' connections, which Kysely does not drive. */
const compiler = new Kysely<Database>({
  dialect: {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  },
});

/**
 * A search as SQL for a search worker (search-plan.ts). Planned `withIdentifier` once the worker
 * has found a book with the keys as its identifier.
 */
export function searchPlan(query: CatalogueQuery, { withIdentifier = false } = {}): SearchPlan {
  const plan = (count: RawBuilder<unknown>, page: (total: number) => RawBuilder<unknown>): SearchPlan => ({
    count: count.compile(compiler),
    ranked: page(RANKED_MATCH_LIMIT).compile(compiler),
    unranked: page(RANKED_MATCH_LIMIT + 1).compile(compiler),
    from: query.from,
    rankedLimit: RANKED_MATCH_LIMIT,
  });
  if (query.terms.length === 0) {
    const byFormat = formatFilter(query.format);
    return plan(
      sql`select count(*) as n from books where 1 = 1 ${byFormat}`,
      () => sql`
        select ${sql.raw(COLUMNS)} from books where 1 = 1 ${byFormat}
        order by updated desc, seq limit ${query.size} offset ${query.from}`,
    );
  }
  if (withIdentifier) {
    const statements = searchStatements(query);
    return plan(statements.count, statements.page);
  }
  // Until the probe finds a book with the keys as its identifier, the words alone are searched.
  const statements = searchStatements({ ...query, identifier: '' });
  return {
    ...plan(statements.count, statements.page),
    ...(query.identifier
      ? { identifierProbe: sql`select 1 from books where identifier_key = ${query.identifier} limit 1`.compile(compiler) }
      : {}),
  };
}

export function createSqliteCatalogue(db: Kysely<Database>, file: string): Catalogue {
  const pool = createSearchPool(file);
  const search: Catalogue['search'] = async (query) => {
    let answer = await pool.search(searchPlan(query));
    if ('identifierFound' in answer) answer = await pool.search(searchPlan(query, { withIdentifier: true }));
    if ('identifierFound' in answer) throw new Error('A search planned with its identifier asked for it again');
    return { total: answer.total, books: answer.rows.map(fromRow) };
  };
  return {
    ...catalogueReads(db),

    search,

    searchPage: pageOfSearch(search),

    close: () => pool.close(),

    /**
     * Through a writer thread with a connection of its own (catalogue-writer.ts), so that searches
     * (on the workers' connections) go on reading the committed catalogue (WAL) while a long
     * import writes, and the books are prepared here while the ones before are inserted there.
     */
    async load(mode, load) {
      let writer: CatalogueWriter | undefined;
      let library = libraryFolderTracker(undefined);
      // Begun with the first book, so that a file refused before it costs no thread.
      const begin = async () => {
        writer = await openCatalogueWriter({
          file,
          start: mode === 'replace' ? ['delete from books', ...INDEX_NAMES.map(emptyIndex)].join(';\n') : undefined,
          read: mode === 'replace' ? undefined : libraryFolderRead(compiler).compile(),
          ...WRITES,
        });
        library = libraryFolderTracker(writer.value);
        return writer;
      };
      try {
        const result = await load(async (book) => {
          const begun = writer ?? (await begin());
          library.add(book);
          await begun.write(writtenBook(book));
        });
        const begun = writer ?? (await begin());
        await begun.commit([libraryFolderWrite(compiler, library.folder).compile(), newCatalogueVersion(compiler).compile()]);
        return result;
      } catch (error) {
        await writer?.rollback();
        throw error;
      }
    },
  };
}

/**
 * Re-indexing (books.reindex.ts): the word indexes emptied, then filled again a page of stored
 * books at a time, with each book's identifier key.
 */
export const sqliteReindex = {
  async start(db: Kysely<Database>) {
    for (const name of INDEX_NAMES) await sql.raw(emptyIndex(name)).execute(db);
  },

  async page(db: Kysely<Database>, rows: Array<BookRow & { seq: number }>) {
    const books = rows.map((row) => ({ seq: row.seq, book: fromRow(row) }));
    const folded = books.map(({ seq, book }) => ({ seq, text: foldedText(book) }));
    for (const name of INDEX_NAMES) {
      const columns = INDEXES[name].columns;
      const values = folded.map(({ seq, text }) => sql`(${seq}, ${sql.join(columns.map((column) => text[column]))})`);
      await sql`insert into ${table(name)} (rowid, ${sql.raw(columns.join(', '))}) values ${sql.join(values)}`.execute(db);
    }
    const keys = books.map(({ seq, book }) => sql`(cast(${seq} as integer), ${identifierKey(book.identifier)})`);
    await sql`with keyed (seq, identifier_key) as (values ${sql.join(keys)})
      update books set identifier_key = (select identifier_key from keyed where keyed.seq = books.seq)
      where seq in (select seq from keyed)`.execute(db);
  },
};
