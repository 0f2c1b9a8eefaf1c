import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.ts';
import type { Dialect } from '../storage/database.ts';
import type { BookColumn } from './book-row.ts';
import { bookPages } from './books.search.ts';
import { postgresReindex } from './books.search.postgres.ts';
import { sqliteReindex } from './books.search.sqlite.ts';

const PAGE = 1000;

/**
 * Indexes every stored book again, a page at a time: for a catalogue loaded before a change to
 * what its words are (their folding, the part of a path indexed, the identifier key). A million
 * books take about as long as loading them.
 */
export async function reindexCatalogue(db: Kysely<Database>, dialect: Dialect, columns?: readonly BookColumn[]): Promise<void> {
  const reindex = dialect === 'sqlite' ? sqliteReindex : postgresReindex;
  await reindex.start(db);
  for await (const rows of bookPages(db, PAGE, columns)) await reindex.page(db, rows);
}
