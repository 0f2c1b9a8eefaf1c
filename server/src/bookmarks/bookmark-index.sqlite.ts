import { type Kysely, sql } from 'kysely';
import type { Database } from '../storage/schema.ts';
import { foldDiacritics } from '../search/search-text.ts';
import { type BookmarkIndex, indexedText, indexRows } from './bookmark-index.ts';
import type { BookmarkRow } from './bookmark-row.ts';

const FTS_COLUMNS = ['title', 'link', 'note', 'tags'] as const;

/** FTS5 query text: each term a prefix within the chosen columns. Terms are letters and digits only. */
export function ftsMatch(terms: string[], fields: readonly string[]): string {
  const filter = fields.length === FTS_COLUMNS.length ? '' : `{${fields.join(' ')}} : `;
  return terms.map((term) => `${filter}"${term}"*`).join(' AND ');
}

/** An entry's row of the word index: its fields' text, folded; FTS5's tokenizer splits it into words. */
export function ftsValues(row: BookmarkRow) {
  const text = indexedText(row);
  return sql`(${row.id}, ${foldDiacritics(text.title)}, ${foldDiacritics(text.link)}, ${foldDiacritics(text.note)},
    ${foldDiacritics(text.tags)})`;
}

/** FTS5 over the folded text, keyed by bookmark id (the rowid). */
export function createSqliteBookmarkIndex(db: Kysely<Database>): BookmarkIndex {
  const rows = indexRows(db);
  return {
    get: rows.get,
    version: rows.version,

    async put(ownerId, entries) {
      if (entries.length === 0) return;
      await db.transaction().execute(async (trx) => {
        // The owner check of the entries being replaced is in rows.replace; the word index follows it.
        for (const entry of entries) {
          await sql`delete from bookmark_index_fts where rowid = ${entry.id}
            and exists (select 1 from bookmark_index where bookmark_id = ${entry.id} and owner_id = ${ownerId})`.execute(trx);
        }
        await rows.replace(trx, ownerId, entries);
        for (const entry of entries) {
          await sql`insert into bookmark_index_fts (rowid, title, link, note, tags) values ${ftsValues(entry)}`.execute(trx);
        }
      });
    },

    async remove(ownerId, ids) {
      if (ids.length === 0) return;
      await db.transaction().execute(async (trx) => {
        // The word index has no owner: its rows go only where the owner's entry is.
        for (const id of ids) {
          await sql`delete from bookmark_index_fts where rowid = ${id}
            and exists (select 1 from bookmark_index where bookmark_id = ${id} and owner_id = ${ownerId})`.execute(trx);
        }
        await rows.remove(trx, ownerId, ids);
      });
    },

    search(ownerId, query) {
      const match = ftsMatch(query.terms, query.fields);
      // From the word index to the entries, never the other way: a user's entries are many, a search's matches fewer.
      return rows.search(ownerId, query, {
        from: sql`bookmark_index_fts cross join bookmark_index i on i.bookmark_id = bookmark_index_fts.rowid`,
        match: sql`bookmark_index_fts match ${match}`,
      });
    },
  };
}
