import { type Kysely, sql } from 'kysely';
import type { Database } from '../storage/schema.ts';
import { statementSlices } from '../storage/statement-rows.ts';
import { fts5Match } from '../search/fts5-query.ts';
import { foldDiacritics } from '../search/search-text.ts';
import { type BookmarkIndex, type BookmarkWords, chosenFields, createBookmarkIndex, type IndexQuery, indexedText } from './bookmarks.search.ts';
import type { BookmarkRow } from './bookmark-row.ts';

const FTS_COLUMNS = ['title', 'link', 'note', 'tags'] as const;

/** An entry's row of the word index: its fields' text, folded; FTS5's tokenizer splits it into words. */
function ftsValues(row: BookmarkRow) {
  const text = indexedText(row);
  return sql`(${row.id}, ${sql.join(FTS_COLUMNS.map((column) => foldDiacritics(text[column])))})`;
}

/**
 * Pages of the word index one write merges at most. FTS5's own merging is off (migration 0019): it
 * merged in steps that grew with the index, up to 50 ms at 100,000 bookmarks. At this size a
 * 20-bookmark batch of an import writes its words within 15–25 ms, and searches are as fast.
 */
const MERGED_PAGES = 32;

async function insertWords(db: Kysely<Database>, rows: BookmarkRow[]) {
  for (const slice of statementSlices(rows)) {
    await sql`insert into bookmark_index_fts (rowid, ${sql.raw(FTS_COLUMNS.join(', '))}) values ${sql.join(slice.map(ftsValues))}`.execute(db);
  }
  await sql`insert into bookmark_index_fts (bookmark_index_fts, rank) values ('merge', ${MERGED_PAGES})`.execute(db);
}

/**
 * Entries named by id are looked up by id: without statistics SQLite takes `owner_id = ?` to be
 * the narrower condition, and walks all the owner's entries to find twenty.
 */
const ENTRIES_BY_ID = sql`bookmark_index not indexed`;

/** The word index has no owner: its rows go only where the owner's entry is. */
async function deleteOwnersWords(trx: Kysely<Database>, ownerId: string, ids: number[]) {
  for (const slice of statementSlices(ids)) {
    await sql`delete from bookmark_index_fts where rowid in
      (select bookmark_id from ${ENTRIES_BY_ID} where owner_id = ${ownerId} and bookmark_id in (${sql.join(slice)}))`.execute(trx);
  }
}

/** The kept pages' word index (migration 0035): every term as a prefix in its one column. */
const pageMatch = (query: IndexQuery) => sql`bookmark_page_fts match ${fts5Match(query.terms, ['text'], ['text'])}`;

/** FTS5 over the folded text, keyed by bookmark id (the rowid). */
const sqliteWords: BookmarkWords = {
  dialect: 'sqlite',

  async put(trx, ownerId, entries, replace) {
    // The owner check of the entries being replaced is in `replace`; the word index follows it.
    await deleteOwnersWords(trx, ownerId, entries.map((entry) => entry.id));
    await replace();
    await insertWords(trx, entries);
  },

  async remove(trx, ownerId, ids, removeEntries) {
    await deleteOwnersWords(trx, ownerId, ids);
    await removeEntries();
  },

  entriesById: ENTRIES_BY_ID,

  // SQLite's plans here need no statistics (ENTRIES_BY_ID), and a delete frees its rows' space at once.
  async settle() {},

  matches(_ownerId, query) {
    // From the word indexes to the entries, never the other way: a user's entries are many, a
    // search's matches fewer. The entries' owner check is the search's own (`i.owner_id`).
    const fields = chosenFields(query.fields);
    const entryMatch = sql`bookmark_index_fts match ${fts5Match(query.terms, fields.entry, FTS_COLUMNS)}`;
    if (!fields.page) {
      return { from: sql`bookmark_index_fts cross join bookmark_index i on i.bookmark_id = bookmark_index_fts.rowid`, match: entryMatch, byPage: sql`0` };
    }
    // Each word index asked once, and each id kept once, marked when its page has the words.
    const pages = sql`select rowid as id, 1 as by_page from bookmark_page_fts where ${pageMatch(query)}`;
    const ids =
      fields.entry.length === 0
        ? pages
        : sql`select id, max(by_page) as by_page from (select rowid as id, 0 as by_page from bookmark_index_fts where ${entryMatch} union all ${pages}) group by id`;
    return { from: sql`(${ids}) w cross join bookmark_index i on i.bookmark_id = w.id`, match: sql`1 = 1`, byPage: sql`w.by_page` };
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
