import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * FTS5 merges the word index's segments as it sees fit after a write, in steps that grow with the
 * index: at 100,000 bookmarks one write in a hundred of an import's took 20–50 ms more, on the
 * event loop, since SQLite's driver does not yield. With its own merging off, every write of words
 * merges a bounded step (bookmarks.search.sqlite.ts). PostgreSQL's GIN index has no such setting.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== 'sqlite') return;
  await sql`insert into bookmark_index_fts (bookmark_index_fts, rank) values ('automerge', 0)`.execute(db);
}
