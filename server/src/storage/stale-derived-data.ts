import { type Kysely, sql } from 'kysely';
import type { Database } from './schema.ts';

/**
 * Data the server works out from what it stores (a book's identifier key, a bookmark's search
 * words). When how it is worked out changes, a migration marks it stale here and the feature that
 * owns it works it out again as the server starts (services.ts): a migration is a frozen snapshot
 * and cannot run a feature's live code, which would change what an old migration does.
 */
export const DERIVED_DATA = ['books.identifier_key', 'bookmarks.words', 'bookmarks.page_words'] as const;
export type DerivedData = (typeof DERIVED_DATA)[number];

/** Runs the rebuild of each stale name, then forgets it; a rebuild that fails leaves it stale for the next start. */
export async function rebuildStale(db: Kysely<Database>, rebuild: Record<DerivedData, () => Promise<void>>): Promise<DerivedData[]> {
  const { rows } = await sql<{ name: string }>`select name from stale_derived_data order by name`.execute(db);
  const stale = rows.map((row) => row.name).filter((name): name is DerivedData => (DERIVED_DATA as readonly string[]).includes(name));
  for (const name of stale) {
    await rebuild[name]();
    await sql`delete from stale_derived_data where name = ${name}`.execute(db);
  }
  return stale;
}
