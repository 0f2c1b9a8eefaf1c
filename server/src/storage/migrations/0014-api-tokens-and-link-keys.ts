import { type Kysely, sql } from 'kysely';
import type { Database } from '../schema.ts';

const BACKFILL_PAGE = 1000;

/**
 * A link in its compared form, as bookmarks/link-key.ts made it when this migration was written
 * (the WHATWG URL serialisation; a link that does not parse as written): copied, so that a later
 * change there leaves this backfill as it ran.
 */
const linkKey = (link: string) => (URL.canParse(link) ? new URL(link).href : link);

/**
 * Personal API tokens (auth/api-tokens.*), each kept as the SHA-256 of the token; and each
 * bookmark's link in its compared form (bookmarks/link-key.ts), so that "already saved" is one
 * index read.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table api_tokens (
    id text primary key,
    user_id text not null references users (id) on delete cascade,
    name text not null,
    scope text not null,
    token_hash text not null unique,
    created_at bigint not null,
    last_used_at bigint
  )`.execute(db);
  await sql`create index api_tokens_user on api_tokens (user_id, created_at)`.execute(db);

  await sql`alter table bookmarks add column link_key text not null default ''`.execute(db);
  const typed = db as Kysely<Database>;
  for (let after = 0; ; ) {
    const rows = await typed.selectFrom('bookmarks').select(['id', 'link']).where('id', '>', after).orderBy('id').limit(BACKFILL_PAGE).execute();
    for (const row of rows) await typed.updateTable('bookmarks').set({ link_key: linkKey(row.link) }).where('id', '=', row.id).execute();
    const last = rows.at(-1);
    if (!last || rows.length < BACKFILL_PAGE) break;
    after = Number(last.id);
  }
  await sql`create index bookmarks_owner_link_key on bookmarks (owner_id, link_key)`.execute(db);
}
