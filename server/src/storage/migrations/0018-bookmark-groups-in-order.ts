import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The list's groups are a user's 20 most used hosts and tags, ties by name. An index in
  // doc_count order alone left the ties to a sort of every host or tag the user has (thousands of
  // hosts, and on PostgreSQL each one a heap read, slower still while imports leave dead rows);
  // in the groups' own order a page of groups is its first 20 entries.
  await sql`drop index bookmark_facets_top`.execute(db);
  await sql`create index bookmark_facets_top on bookmark_facets (owner_id, kind, doc_count desc, key)`.execute(db);
}
