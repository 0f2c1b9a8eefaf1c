import { type Kysely, sql } from 'kysely';
import type { BookmarkSearchField } from '../../../contract/bookmarks.ts';
import type { Database } from '../storage/schema.ts';
import { searchWords } from '../search/search-text.ts';
import { type BookmarkIndex, indexedText, indexRows } from './bookmark-index.ts';
import type { BookmarkRow } from './bookmark-row.ts';

/** Each field is a weight class, so that a query can be limited to fields. */
const WEIGHT: Record<BookmarkSearchField, string> = { title: 'A', link: 'B', note: 'C', tags: 'D' };
const MAX_POSITION = 16383;

/**
 * Written as a literal rather than parsed by to_tsvector: the words are already folded and split
 * as SQLite splits them, and PostgreSQL's parser would split them by the server's locale.
 */
export function tsvectorLiteral(row: BookmarkRow): string {
  const text = indexedText(row);
  const parts: string[] = [];
  let position = 0;
  for (const field of ['title', 'link', 'note', 'tags'] as const) {
    for (const word of searchWords(text[field])) {
      if (word.length > 200) continue;
      position = Math.min(position + 1, MAX_POSITION);
      parts.push(`'${word}':${position}${WEIGHT[field]}`);
    }
  }
  return parts.join(' ');
}

function tsqueryLiteral(terms: string[], fields: BookmarkSearchField[]): string {
  const weights = fields.map((field) => WEIGHT[field]).join('');
  return terms.map((term) => `'${term}':*${weights}`).join(' & ');
}

/** A tsvector column with a GIN index. */
export function createPostgresBookmarkIndex(db: Kysely<Database>): BookmarkIndex {
  const rows = indexRows(db);
  return {
    get: rows.get,
    version: rows.version,

    async put(ownerId, entries) {
      if (entries.length === 0) return;
      await db.transaction().execute(async (trx) => {
        await rows.replace(trx, ownerId, entries, (row) => ({ search: sql`${tsvectorLiteral(row)}::tsvector` }));
      });
    },

    async remove(ownerId, ids) {
      if (ids.length === 0) return;
      await db.transaction().execute((trx) => rows.remove(trx, ownerId, ids));
    },

    search(ownerId, query) {
      return rows.search(ownerId, query, {
        from: sql`bookmark_index i`,
        match: sql`i.search @@ ${tsqueryLiteral(query.terms, query.fields)}::tsquery`,
      });
    },
  };
}
