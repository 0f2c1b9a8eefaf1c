import { type Kysely, sql } from 'kysely';
import type { Database } from '../schema.ts';

/** Tags compare in lower case: the contract's `foldTag` as it stood when this migration was written, copied so that it stays. */
const foldTag = (tag: string) => tag.toLowerCase();

/** Each tag spelled as it first was, repeats that differ only in case dropped. */
function spelled(tags: string[], known: Map<string, string>): string[] {
  const result: string[] = [];
  for (const tag of tags) {
    const folded = foldTag(tag);
    if (!known.has(folded)) known.set(folded, tag);
    const spelling = known.get(folded)!;
    if (!result.includes(spelling)) result.push(spelling);
  }
  return result;
}

/**
 * One owner's tags merged: the spelling of the oldest bookmark wins, and the bookmarks, their tag
 * rows, their index entries and the tag counts are written again where they differ.
 */
async function mergeSpellings(trx: Kysely<Database>, ownerId: string) {
  const known = new Map<string, string>();
  const counts = new Map<string, number>();
  const bookmarks = await trx
    .selectFrom('bookmarks')
    .select(['id', 'tags', 'create_date'])
    .where('owner_id', '=', ownerId)
    .orderBy('create_date')
    .orderBy('id')
    .execute();
  for (const bookmark of bookmarks) {
    const tags = JSON.parse(bookmark.tags) as string[];
    const merged = spelled(tags, known);
    for (const tag of merged) counts.set(tag, (counts.get(tag) ?? 0) + 1);
    if (JSON.stringify(merged) === bookmark.tags) continue;
    await trx.updateTable('bookmarks').set({ tags: JSON.stringify(merged) }).where('id', '=', bookmark.id).execute();
    await trx.deleteFrom('bookmark_tags').where('bookmark_id', '=', bookmark.id).execute();
    if (merged.length > 0) {
      await trx
        .insertInto('bookmark_tags')
        .values(merged.map((tag) => ({ bookmark_id: bookmark.id, owner_id: ownerId, tag, create_date: bookmark.create_date })))
        .execute();
    }
  }
  const entries = await trx.selectFrom('bookmark_index').select(['bookmark_id', 'tags']).where('owner_id', '=', ownerId).execute();
  for (const entry of entries) {
    const merged = spelled(JSON.parse(entry.tags) as string[], known);
    if (JSON.stringify(merged) === entry.tags) continue;
    await trx.updateTable('bookmark_index').set({ tags: JSON.stringify(merged) }).where('bookmark_id', '=', entry.bookmark_id).execute();
    await trx.deleteFrom('bookmark_index_tags').where('bookmark_id', '=', entry.bookmark_id).execute();
    if (merged.length > 0) {
      await trx
        .insertInto('bookmark_index_tags')
        .values(merged.map((tag) => ({ bookmark_id: entry.bookmark_id, tag })))
        .execute();
    }
  }
  await trx.deleteFrom('bookmark_facets').where('owner_id', '=', ownerId).where('kind', '=', 'tag').execute();
  const rows = [...counts].map(([key, doc_count]) => ({ owner_id: ownerId, kind: 'tag' as const, key, folded: foldTag(key), doc_count }));
  for (let start = 0; start < rows.length; start += 500) {
    await trx.insertInto('bookmark_facets').values(rows.slice(start, start + 500)).execute();
  }
}

/**
 * Tags compare case-insensitively: "News" and "news" are one tag, spelled as first written. The
 * counts learn each tag's folded form and the number of each user's bookmarks, and each user's tags
 * written in several spellings are merged (in the migration's one transaction).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table bookmark_facets add column folded text not null default ''`.execute(db);
  await sql`update bookmark_facets set folded = key where kind = 'host'`.execute(db);
  await sql`create index bookmark_facets_folded on bookmark_facets (owner_id, kind, folded)`.execute(db);
  // The number of each owner's bookmarks, kept like the other counts, for the list's total.
  await sql`insert into bookmark_facets (owner_id, kind, key, folded, doc_count)
    select owner_id, 'all', '', '', count(*) from bookmarks group by owner_id`.execute(db);
  const typed = db as Kysely<Database>;
  const owners = await typed.selectFrom('bookmark_facets').select('owner_id').where('kind', '=', 'tag').distinct().execute();
  for (const { owner_id } of owners) await mergeSpellings(typed, owner_id);
}
