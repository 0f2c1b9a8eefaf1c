import { type Kysely, sql } from 'kysely';

/**
 * Notices beyond e-mail (docs/decisions/0047-push-and-ntfy-notices.md): each user's Web Push
 * subscriptions (one a device) and ntfy topic; the single-use Done links a push or ntfy notice
 * carries, only their SHA-256 kept; and on each outbox notice the person whose devices get it, what
 * they are shown, and the channels it already reached, so that a retry sends only the others.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table push_subscriptions (
    id text primary key,
    user_id text not null references users (id) on delete cascade,
    endpoint text not null,
    p256dh text not null,
    auth text not null,
    created_at bigint not null
  )`.execute(db);
  await sql`create unique index push_subscriptions_user_endpoint on push_subscriptions (user_id, endpoint)`.execute(db);
  await sql`create table ntfy_topics (
    user_id text primary key references users (id) on delete cascade,
    url text not null,
    updated_at bigint not null
  )`.execute(db);
  await sql`create table notice_done_tokens (
    token_hash text primary key,
    task_id text not null references tasks (id) on delete cascade,
    owner_id text not null references users (id) on delete cascade,
    schedule_time bigint not null,
    expires_at bigint not null,
    used_at bigint
  )`.execute(db);
  await sql`create index notice_done_tokens_expiry on notice_done_tokens (expires_at)`.execute(db);
  await sql`alter table task_notices add column person_id text`.execute(db);
  await sql`alter table task_notices add column push_message text`.execute(db);
  await sql`alter table task_notices add column delivered text not null default '[]'`.execute(db);
}
