import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // 1 while the pending notice is one its owner typed: a change of the notice rules then leaves it
  // where it is, until it is sent or the occurrence changes.
  await sql`alter table tasks add column notice_set_by_user integer not null default 0`.execute(db);
  // The Done list: every completion of the owner's tasks, the latest first.
  await sql`create index task_completions_owner_done on task_completions (owner_id, completed_at, id)`.execute(db);
}
