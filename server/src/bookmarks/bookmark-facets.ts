import type { Kysely, Transaction } from 'kysely';
import { foldTag } from '../../../contract/bookmarks.ts';
import type { Dialect } from '../storage/database.ts';
import type { Database } from '../storage/schema.ts';
import { insertStatements } from '../storage/statement-rows.ts';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * Changes to the owner's counts, keyed `host …` / `tag …`, and `all ` for the number of bookmarks,
 * which the list's total reads in one row however many hosts there are.
 */
export type FacetCounts = Map<string, number>;

/** Adds `delta` to every tag's count, and to the host's when given (a bookmark added or removed, not retagged). */
export function count(counts: FacetCounts, host: string | null, tags: string[], delta: number) {
  const keys = tags.map((tag) => `tag ${tag}`);
  if (host !== null) keys.push(`host ${host}`, 'all ');
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + delta);
}

const FACET_TYPES = { owner_id: 'text', kind: 'text', key: 'text', folded: 'text', doc_count: 'bigint' };

export async function writeCounts(db: Db, dialect: Dialect, ownerId: string, counts: FacetCounts) {
  const values = [...counts]
    .filter(([, delta]) => delta !== 0)
    .map(([kindKey, delta]) => {
      const space = kindKey.indexOf(' ');
      const kind = kindKey.slice(0, space) as 'all' | 'host' | 'tag';
      const key = kindKey.slice(space + 1);
      return { owner_id: ownerId, kind, key, folded: kind === 'tag' ? foldTag(key) : key, doc_count: delta };
    });
  for (const insert of insertStatements(db, dialect, 'bookmark_facets', values, FACET_TYPES)) {
    await insert
      .onConflict((oc) =>
        oc.columns(['owner_id', 'kind', 'key']).doUpdateSet({
          doc_count: (eb) => eb('bookmark_facets.doc_count', '+', eb.ref('excluded.doc_count')),
        }),
      )
      .execute();
  }
}

/**
 * The spelling each folded tag has among the owner's bookmarks, for those it has: tags compare
 * case-insensitively and keep the spelling first written. `except` leaves out one bookmark's own
 * tags, so that an edit of the only bookmark with a tag may change its case.
 */
export async function spellings(db: Db, ownerId: string, tags: string[], except: string[] = []): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const folded = [...new Set(tags.map(foldTag))];
  if (folded.length === 0) return found;
  const own = new Set(except);
  for (let start = 0; start < folded.length; start += 500) {
    const rows = await db
      .selectFrom('bookmark_facets')
      .select(['key', 'folded', 'doc_count'])
      .where('owner_id', '=', ownerId)
      .where('kind', '=', 'tag')
      .where('folded', 'in', folded.slice(start, start + 500))
      .where('doc_count', '>', 0)
      .execute();
    for (const row of rows) {
      if (Number(row.doc_count) - (own.has(row.key) ? 1 : 0) > 0) found.set(row.folded, row.key);
    }
  }
  return found;
}

/**
 * A bookmark's tags as they are stored: each in the spelling the owner already uses (`known`, which
 * learns the new ones, so that one import spells a tag one way), repeats that differ only in case dropped.
 */
export function spelledTags(tags: string[], known: Map<string, string>): string[] {
  const result: string[] = [];
  const seen = new Set<string>();
  for (const tag of tags) {
    const folded = foldTag(tag);
    if (seen.has(folded)) continue;
    seen.add(folded);
    if (!known.has(folded)) known.set(folded, tag);
    result.push(known.get(folded)!);
  }
  return result;
}

/** Every tag of the owner with its count, most used first, then by name. */
export async function tagCounts(db: Db, ownerId: string): Promise<Array<{ tag: string; count: number }>> {
  const rows = await db
    .selectFrom('bookmark_facets')
    .select(['key', 'doc_count'])
    .where('owner_id', '=', ownerId)
    .where('kind', '=', 'tag')
    .where('doc_count', '>', 0)
    .execute();
  // Sorted here: the databases' collations order names differently.
  return rows
    .map((row) => ({ tag: row.key, count: Number(row.doc_count) }))
    .sort((a, b) => b.count - a.count || (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
}
