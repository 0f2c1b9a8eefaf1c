import { type Kysely, sql } from 'kysely';
import type { Database } from '../storage/schema.ts';
import { fts5Match } from '../search/fts5-query.ts';
import { foldDiacritics } from '../search/search-text.ts';
import { type BookmarkIndex, type BookmarkWords, createBookmarkIndex, indexedText } from './bookmarks.search.ts';
import type { BookmarkRow } from './bookmark-row.ts';

const FTS_COLUMNS = ['title', 'link', 'note', 'tags'] as const;

/** An entry's row of the word index: its fields' text, folded; FTS5's tokenizer splits it into words. */
function ftsValues(row: BookmarkRow) {
  const text = indexedText(row);
  return sql`(${row.id}, ${sql.join(FTS_COLUMNS.map((column) => foldDiacritics(text[column])))})`;
}

const insertWords = (db: Kysely<Database>, rows: BookmarkRow[]) =>
  sql`insert into bookmark_index_fts (rowid, ${sql.raw(FTS_COLUMNS.join(', '))}) values ${sql.join(rows.map(ftsValues))}`.execute(db);

/** The word index has no owner: its rows go only where the owner's entry is. */
async function deleteOwnersWords(trx: Kysely<Database>, ownerId: string, ids: number[]) {
  for (const id of ids) {
    await sql`delete from bookmark_index_fts where rowid = ${id}
      and exists (select 1 from bookmark_index where bookmark_id = ${id} and owner_id = ${ownerId})`.execute(trx);
  }
}

/** FTS5 over the folded text, keyed by bookmark id (the rowid). */
const sqliteWords: BookmarkWords = {
  async put(trx, ownerId, entries, replace) {
    // The owner check of the entries being replaced is in `replace`; the word index follows it.
    await deleteOwnersWords(trx, ownerId, entries.map((entry) => entry.id));
    await replace();
    for (const entry of entries) await insertWords(trx, [entry]);
  },

  async remove(trx, ownerId, ids, removeEntries) {
    await deleteOwnersWords(trx, ownerId, ids);
    await removeEntries();
  },

  matches(query) {
    // From the word index to the entries, never the other way: a user's entries are many, a search's matches fewer.
    return {
      from: sql`bookmark_index_fts cross join bookmark_index i on i.bookmark_id = bookmark_index_fts.rowid`,
      match: sql`bookmark_index_fts match ${fts5Match(query.terms, query.fields, FTS_COLUMNS)}`,
    };
  },
};

export const createSqliteBookmarkIndex = (db: Kysely<Database>): BookmarkIndex => createBookmarkIndex(db, sqliteWords);

/** Re-indexing (bookmarks.reindex.ts): the word index emptied, then filled again a page of entries at a time. */
export const sqliteReindex = {
  async start(db: Kysely<Database>) {
    await sql`insert into bookmark_index_fts (bookmark_index_fts) values ('delete-all')`.execute(db);
  },
  page: insertWords,
};
