import { DatabaseSync } from 'node:sqlite';
import { type Kysely, sql } from 'kysely';
import type { CatalogueBook } from '../../../contract/books.ts';
import type { Database } from '../storage/schema.ts';
import { foldDiacritics } from './search-text.ts';
import { type BookRow, type Catalogue, type CatalogueQuery, formatBit, fromRow, indexedText, toRow } from './catalogue.ts';

const COLUMNS = 'id, title, author, identifier, publish_date, publisher, created, updated, comment, path, formats, format_mask';
const EXPORT_PAGE = 1000;

/** BM25 weights in column order (title, author, comment, file_path): title above author above the rest. */
export const RANK_SQL = 'bm25(books_fts, 10.0, 4.0, 1.0, 1.0)';
const RANK = sql.raw(RANK_SQL);

/** FTS5 query text: every term a prefix, within the chosen columns. Terms are letters and digits only. */
export function matchExpression(query: Pick<CatalogueQuery, 'terms' | 'fields'>): string {
  const columns = query.fields.length === 4 ? '' : `{${query.fields.join(' ')}} : `;
  return query.terms.map((term) => `${columns}"${term}"*`).join(' AND ');
}

export function createSqliteCatalogue(db: Kysely<Database>, file: string): Catalogue {
  return {
    async search(query) {
      const mask = formatBit(query.format);
      const formatFilter = mask === 0 ? sql.raw('') : sql`and b.format_mask & ${mask} != 0`;
      if (query.terms.length === 0) {
        const total = await sql<{ n: number }>`select count(*) as n from books b where 1 = 1 ${formatFilter}`.execute(db);
        const page = await sql<BookRow>`
          select ${sql.raw(COLUMNS)} from books b where 1 = 1 ${formatFilter}
          order by updated desc, seq limit ${query.size} offset ${query.from}`.execute(db);
        return { total: Number(total.rows[0]?.n ?? 0), books: page.rows.map(fromRow) };
      }
      const match = matchExpression(query);
      const total = await sql<{ n: number }>`
        select count(*) as n from books_fts f join books b on b.seq = f.rowid
        where books_fts match ${match} ${formatFilter}`.execute(db);
      const page = await sql<BookRow>`
        select ${sql.raw(COLUMNS.replace(/(\w+)/g, 'b.$1'))} from books_fts f join books b on b.seq = f.rowid
        where books_fts match ${match} ${formatFilter}
        order by ${RANK}, b.seq limit ${query.size} offset ${query.from}`.execute(db);
      return { total: Number(total.rows[0]?.n ?? 0), books: page.rows.map(fromRow) };
    },

    async get(id) {
      const row = await sql<BookRow>`select ${sql.raw(COLUMNS)} from books where id = ${id}`.execute(db);
      return row.rows[0] && fromRow(row.rows[0]);
    },

    async *all() {
      for (let after = 0; ; ) {
        const page = await sql<BookRow & { seq: number }>`
          select seq, ${sql.raw(COLUMNS)} from books where seq > ${after} order by seq limit ${EXPORT_PAGE}`.execute(db);
        for (const row of page.rows) yield fromRow(row);
        if (page.rows.length < EXPORT_PAGE) return;
        after = page.rows[page.rows.length - 1]!.seq;
      }
    },

    /**
     * On a connection of its own, so that searches on the main connection go on reading the
     * committed catalogue (WAL) while a long import writes.
     */
    async load(mode, load) {
      const writer = new DatabaseSync(file);
      writer.exec('PRAGMA busy_timeout = 10000');
      // A larger page cache keeps the word index's pages in memory through a long import.
      writer.exec('PRAGMA cache_size = -65536');
      const statements = {
        find: writer.prepare('select seq from books where id = ?'),
        insert: writer.prepare(
          `insert into books (${COLUMNS}) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict (id) do nothing`,
        ),
        update: writer.prepare(
          `update books set title = ?, author = ?, identifier = ?, publish_date = ?, publisher = ?, created = ?,
           updated = ?, comment = ?, path = ?, formats = ?, format_mask = ? where seq = ?`,
        ),
        unindex: writer.prepare('delete from books_fts where rowid = ?'),
        index: writer.prepare('insert into books_fts (rowid, title, author, comment, file_path) values (?, ?, ?, ?, ?)'),
      };
      const write = async (book: CatalogueBook) => {
        const r = toRow(book);
        // Most books are new (all of them in a replace): try the insert first, look up only on a clash.
        const inserted = statements.insert.run(r.id, r.title, r.author, r.identifier, r.publish_date, r.publisher,
          r.created, r.updated, r.comment, r.path, r.formats, r.format_mask);
        let seq = Number(inserted.lastInsertRowid);
        if (inserted.changes === 0) {
          seq = (statements.find.get(r.id) as { seq: number }).seq;
          statements.update.run(r.title, r.author, r.identifier, r.publish_date, r.publisher, r.created, r.updated,
            r.comment, r.path, r.formats, r.format_mask, seq);
          statements.unindex.run(seq);
        }
        const text = indexedText(book);
        statements.index.run(seq, foldDiacritics(text.title), foldDiacritics(text.author), foldDiacritics(text.comment),
          foldDiacritics(text.file_path));
      };
      try {
        writer.exec('BEGIN IMMEDIATE');
        if (mode === 'replace') {
          writer.exec("delete from books; insert into books_fts (books_fts) values ('delete-all')");
        }
        const result = await load(write);
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
