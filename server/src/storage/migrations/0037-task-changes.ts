import { type Kysely, sql } from 'kysely';

/**
 * CalDAV's sync tokens (issue 40, docs/decisions/0046-caldav-for-tasks.md): each owner's change
 * counter, and per task the number of its latest change, whether that change deleted it (a
 * tombstone, kept so a client syncing later learns of the deletion), and the UID and resource name
 * a CalDAV client knows it by. No foreign key to the task: a tombstone outlives it. Tasks already
 * there start at change 1 under their own id.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table task_change_counters (
    owner_id text primary key references users (id) on delete cascade,
    last_change bigint not null
  )`.execute(db);
  await sql`create table task_changes (
    owner_id text not null references users (id) on delete cascade,
    task_id text not null,
    change bigint not null,
    deleted integer not null,
    uid text not null,
    resource_name text not null,
    primary key (owner_id, task_id),
    unique (owner_id, resource_name)
  )`.execute(db);
  await sql`create index task_changes_since on task_changes (owner_id, change)`.execute(db);
  await sql`insert into task_changes (owner_id, task_id, change, deleted, uid, resource_name)
    select owner_id, id, 1, 0, id, id || '.ics' from tasks`.execute(db);
  await sql`insert into task_change_counters (owner_id, last_change)
    select distinct owner_id, 1 from tasks`.execute(db);
}
