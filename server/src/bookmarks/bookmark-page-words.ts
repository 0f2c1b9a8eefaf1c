import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../storage/schema.ts';
import type { Dialect } from '../storage/dialect.ts';
import { foldDiacritics, searchWords } from '../search/search-text.ts';
import { INDEXED_PAGE_CHARS, touchIndexVersion } from './bookmarks.search.ts';


/**
 * PostgreSQL refuses a tsvector over 1 MB. Without positions it holds each distinct word once, in
 * its bytes and a 4-byte entry; the words of the indexed characters stay under this but for a text
 * made to defeat it (folding can lengthen a character four times), whose further words are left out.
 */
const MAX_VECTOR_BYTES = 900_000;

/** The characters indexed, cut at a character, never inside a surrogate pair. */
function indexedPart(text: string): string {
  if (text.length <= INDEXED_PAGE_CHARS) return text;
  const end = /[\uD800-\uDBFF]/.test(text[INDEXED_PAGE_CHARS - 1]!) ? INDEXED_PAGE_CHARS - 1 : INDEXED_PAGE_CHARS;
  return text.slice(0, end);
}

/**
 * A page's tsvector as a literal: its distinct words without positions, since a search only asks
 * whether the words are there (results are newest first, not ranked), and positions would
 * multiply the vector's size by its repeated words.
 */
export function pageTsvector(text: string): string {
  const parts: string[] = [];
  let bytes = 0;
  for (const word of new Set(searchWords(indexedPart(text)))) {
    bytes += Buffer.byteLength(word) + 8;
    if (bytes > MAX_VECTOR_BYTES) break;
    parts.push(`'${word}'`);
  }
  return parts.join(' ');
}

/** As for the bookmark index (bookmarks.search.sqlite.ts): pages of the word index a write merges at most. */
const MERGED_PAGES = 32;

/**
 * Writes the words of the owner's kept page (or none, for `text` null) in the transaction of the
 * copy's own write, which has checked that the bookmark is the owner's, and gives the owner's
 * index a new version, so that a kept result is not used again.
 */
export type PutPageWords = (trx: Transaction<Database>, ownerId: string, bookmarkId: number, text: string | null) => Promise<void>;

export function pageWordsWriter(dialect: Dialect): PutPageWords {
  return async (trx, ownerId, bookmarkId, text) => {
    if (dialect === 'sqlite') {
      await sql`delete from bookmark_page_fts where rowid = ${bookmarkId}`.execute(trx);
      if (text !== null) {
        await sql`insert into bookmark_page_fts (rowid, text) values (${bookmarkId}, ${foldDiacritics(indexedPart(text))})`.execute(trx);
        await sql`insert into bookmark_page_fts (bookmark_page_fts, rank) values ('merge', ${MERGED_PAGES})`.execute(trx);
      }
    } else {
      await sql`update bookmark_archives set text_search = ${text === null ? null : pageTsvector(text)}::tsvector
        where bookmark_id = ${bookmarkId} and owner_id = ${ownerId}`.execute(trx);
    }
    await touchIndexVersion(trx, ownerId);
  };
}

/** Kept pages' texts read at once when indexing them all again: 30 KB each, a few MB. */
const REINDEX_PAGE = 100;

/**
 * Writes the words of every kept page again, a page of copies per transaction: for the copies
 * kept before their words were (migration 0035), or before a change to how words are folded.
 */
export async function reindexPageWords(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const putWords = pageWordsWriter(dialect);
  for (let after = 0; ; ) {
    const rows = await db
      .selectFrom('bookmark_archives')
      .select(['bookmark_id', 'owner_id', 'text'])
      .where('bookmark_id', '>', after)
      .where('text', 'is not', null)
      .orderBy('bookmark_id')
      .limit(REINDEX_PAGE)
      .execute();
    if (rows.length === 0) return;
    await db.transaction().execute(async (trx) => {
      for (const row of rows) await putWords(trx, row.owner_id, Number(row.bookmark_id), row.text);
    });
    if (rows.length < REINDEX_PAGE) return;
    after = Number(rows[rows.length - 1]!.bookmark_id);
  }
}
