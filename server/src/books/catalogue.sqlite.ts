import { randomUUID } from 'node:crypto';
import { DatabaseSync } from 'node:sqlite';
import {
  DummyDriver,
  Kysely,
  type RawBuilder,
  sql,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import type { CatalogueBook } from '../../../contract/books.ts';
import type { Database } from '../storage/schema.ts';
import { foldDiacritics } from '../search/search-text.ts';
import {
  type BookRow,
  type Catalogue,
  type CatalogueQuery,
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
import { createSearchPool, type SearchPoolOptions } from './search-pool.ts';
import type { SearchPlan } from './search-plan.ts';

const COLUMNS = BOOK_COLUMNS.join(', ');

/**
 * Two word indexes: titles and authors (short, searched by default) apart from comments and file
 * paths (long), so that a title search never walks the postings of every comment.
 */
const INDEXES = {
  meta: { table: 'books_fts_meta', columns: ['title', 'author'] },
  text: { table: 'books_fts_text', columns: ['comment', 'file_path'] },
} as const;
type IndexName = keyof typeof INDEXES;

/** FTS5 query text: each term a prefix, within the chosen columns. Terms are letters and digits only. */
function termsIn(name: IndexName, fields: readonly string[], terms: string[], join: 'AND' | 'OR'): string {
  const columns = INDEXES[name].columns.filter((column) => fields.includes(column));
  const filter = columns.length === INDEXES[name].columns.length ? '' : `{${columns.join(' ')}} : `;
  return terms.map((term) => `${filter}"${term}"*`).join(` ${join} `);
}

const table = (name: IndexName) => sql.raw(INDEXES[name].table);

/** What each word index is given for a book: its fields' text, folded; FTS5's tokenizer splits it into words. */
export function ftsText(book: CatalogueBook): { meta: [title: string, author: string]; text: [comment: string, filePath: string] } {
  const text = indexedText(book);
  return {
    meta: [foldDiacritics(text.title), foldDiacritics(text.author)],
    text: [foldDiacritics(text.comment), foldDiacritics(text.file_path)],
  };
}
const PREFIXED_COLUMNS = sql.raw(COLUMNS.replace(/(\w+)/g, 'b.$1'));

/**
 * The books that have every term in at least one chosen field, as one `rowid` column. One index
 * can say so at once; across the two, each term's books are those of either index, and the books
 * of every term are kept.
 */
function wordHits(query: Pick<CatalogueQuery, 'terms' | 'fields'>, only: IndexName | undefined): RawBuilder<unknown> {
  if (only) {
    return sql`select rowid from ${table(only)} where ${table(only)} match ${termsIn(only, query.fields, query.terms, 'AND')}`;
  }
  // Each term's union is a subquery of its own: SQLite gives UNION and INTERSECT one precedence,
  // left to right, so "m1 union t1 intersect m2 union t2" would add t2's books without the AND.
  return sql.join(
    query.terms.map(
      (term) => sql`select rowid from (select rowid from books_fts_meta where books_fts_meta match ${termsIn('meta', query.fields, [term], 'AND')}
        union select rowid from books_fts_text where books_fts_text match ${termsIn('text', query.fields, [term], 'AND')})`,
    ),
    sql` intersect `,
  );
}

/**
 * The count and page statements of a search with terms, ranked as catalogue.ts says. `total` is
 * the count's answer, known before the page is asked for. With `identifier`, the books whose
 * identifier it is are added to the word matches.
 */
function searchStatements(query: Omit<CatalogueQuery, 'format' | 'identifier'> & { mask: number; identifier?: string }) {
  const used = (Object.keys(INDEXES) as IndexName[]).filter((name) =>
    INDEXES[name].columns.some((column) => query.fields.includes(column)),
  );
  const formatFilter = query.mask === 0 ? sql.raw('') : sql`and b.format_mask & ${query.mask} != 0`;
  const only = used.length === 1 ? used[0]! : undefined;
  const words = wordHits(query, only);
  const hits = query.identifier ? sql`${words} union select seq from books where identifier_key = ${query.identifier}` : words;
  // Books whose title holds every term come first; a search of titles alone needs no second look.
  // As `not in`, the title matches are looked up once; as a join they were looked up per hit.
  const rank =
    query.fields.includes('title') && !ranksByTitleLength(query)
      ? sql`h.rowid not in (select rowid from books_fts_meta where books_fts_meta match ${termsIn('meta', ['title'], query.terms, 'AND')}),
          b.title_words, b.seq`
      : sql`b.title_words, b.seq`;
  return {
    count:
      query.mask === 0
        ? sql<{ n: number }>`select count(*) as n from (${hits})`
        : sql<{ n: number }>`select count(*) as n from (${hits}) h join books b on b.seq = h.rowid where 1 = 1 ${formatFilter}`,
    page: (total: number) => {
      if (total <= RANKED_MATCH_LIMIT) {
        return sql<BookRow>`
          select ${PREFIXED_COLUMNS} from (${hits}) h join books b on b.seq = h.rowid
          where 1 = 1 ${formatFilter}
          order by ${rank} limit ${query.size} offset ${query.from}`;
      }
      // Too many to rank: newest-loaded first, read from the index's end and stopped at the page.
      if (only && query.mask === 0) {
        return sql<BookRow>`
          select ${PREFIXED_COLUMNS} from (${hits} order by rowid desc limit ${query.size} offset ${query.from}) h
          join books b on b.seq = h.rowid order by h.rowid desc`;
      }
      return sql<BookRow>`
        select ${PREFIXED_COLUMNS} from (${hits}) h join books b on b.seq = h.rowid
        where 1 = 1 ${formatFilter} order by h.rowid desc limit ${query.size} offset ${query.from}`;
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
  const mask = formatBit(query.format);
  const plan = (count: RawBuilder<unknown>, page: (total: number) => RawBuilder<unknown>): SearchPlan => ({
    count: count.compile(compiler),
    ranked: page(RANKED_MATCH_LIMIT).compile(compiler),
    unranked: page(RANKED_MATCH_LIMIT + 1).compile(compiler),
    from: query.from,
    rankedLimit: RANKED_MATCH_LIMIT,
  });
  if (query.terms.length === 0) {
    const formatFilter = mask === 0 ? sql.raw('') : sql`and format_mask & ${mask} != 0`;
    return plan(
      sql`select count(*) as n from books where 1 = 1 ${formatFilter}`,
      () => sql`
        select ${sql.raw(COLUMNS)} from books where 1 = 1 ${formatFilter}
        order by updated desc, seq limit ${query.size} offset ${query.from}`,
    );
  }
  if (withIdentifier) {
    const statements = searchStatements({ ...query, mask, identifier: query.identifier });
    return plan(statements.count, statements.page);
  }
  const statements = searchStatements({ ...query, mask });
  return {
    ...plan(statements.count, statements.page),
    ...(query.identifier
      ? { identifierProbe: sql`select 1 from books where identifier_key = ${query.identifier} limit 1`.compile(compiler) }
      : {}),
  };
}

export function createSqliteCatalogue(db: Kysely<Database>, file: string, searchPool: SearchPoolOptions = {}): Catalogue {
  const pool = createSearchPool(file, searchPool);
  return {
    ...catalogueReads(db),

    async search(query) {
      let answer = await pool.search(searchPlan(query));
      if ('identifierFound' in answer) answer = await pool.search(searchPlan(query, { withIdentifier: true }));
      if ('identifierFound' in answer) throw new Error('A search planned with its identifier asked for it again');
      return { total: answer.total, books: answer.rows.map(fromRow) };
    },

    close: () => pool.close(),

    /**
     * On a connection of its own, so that searches (on the workers' connections) go on reading
     * the committed catalogue (WAL) while a long import writes.
     */
    async load(mode, load) {
      const writer = new DatabaseSync(file);
      writer.exec('PRAGMA busy_timeout = 10000');
      // A larger page cache keeps the word index's pages in memory through a long import.
      writer.exec('PRAGMA cache_size = -16384');
      const statements = {
        find: writer.prepare('select seq from books where id = ?'),
        insert: writer.prepare(
          `insert into books (${COLUMNS}, title_words, identifier_key) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
           on conflict (id) do nothing`,
        ),
        update: writer.prepare(
          `update books set title = ?, author = ?, identifier = ?, publish_date = ?, publisher = ?, created = ?,
           updated = ?, comment = ?, path = ?, formats = ?, format_mask = ?, title_words = ?, identifier_key = ?
           where seq = ?`,
        ),
        unindexMeta: writer.prepare('delete from books_fts_meta where rowid = ?'),
        unindexText: writer.prepare('delete from books_fts_text where rowid = ?'),
        indexMeta: writer.prepare('insert into books_fts_meta (rowid, title, author) values (?, ?, ?)'),
        indexText: writer.prepare('insert into books_fts_text (rowid, comment, file_path) values (?, ?, ?)'),
      };
      const write = async (book: CatalogueBook) => {
        const r = toRow(book);
        // Most books are new (all of them in a replace): try the insert first, look up only on a clash.
        const inserted = statements.insert.run(r.id, r.title, r.author, r.identifier, r.publish_date, r.publisher,
          r.created, r.updated, r.comment, r.path, r.formats, r.format_mask, titleWords(book), identifierKey(book.identifier));
        let seq = Number(inserted.lastInsertRowid);
        if (inserted.changes === 0) {
          seq = (statements.find.get(r.id) as { seq: number }).seq;
          statements.update.run(r.title, r.author, r.identifier, r.publish_date, r.publisher, r.created, r.updated,
            r.comment, r.path, r.formats, r.format_mask, titleWords(book), identifierKey(book.identifier), seq);
          statements.unindexMeta.run(seq);
          statements.unindexText.run(seq);
        }
        const words = ftsText(book);
        statements.indexMeta.run(seq, ...words.meta);
        statements.indexText.run(seq, ...words.text);
      };
      try {
        writer.exec('BEGIN IMMEDIATE');
        if (mode === 'replace') {
          writer.exec(`delete from books;
            insert into books_fts_meta (books_fts_meta) values ('delete-all');
            insert into books_fts_text (books_fts_text) values ('delete-all')`);
        }
        const result = await load(write);
        writer
          .prepare('insert into settings (key, value) values (?, ?) on conflict (key) do update set value = excluded.value')
          .run(VERSION_SETTING, randomUUID());
        writer.exec('COMMIT');
        return result;
      } catch (error) {
        if (writer.isTransaction) writer.exec('ROLLBACK');
        throw error;
      } finally {
        writer.close();
      }
    },
  };
}
