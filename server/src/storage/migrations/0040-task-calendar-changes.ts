import { type Kysely, sql } from 'kysely';

/**
 * CalDAV's sync tokens per calendar (issue 40, docs/decisions/0046-caldav-for-tasks.md): each
 * household list is a calendar of its own, so its change counter is the list's (`list:<id>`), which
 * every member's change moves; a user's own unlisted tasks keep their counter under the user's id.
 * A task already in a list leaves a tombstone in its owner's calendar (one change past the owner's
 * counter) and starts at change 1 in its list's. `owner_id` (the task's) lets an account's rows go
 * with it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table task_calendar_counters (
    calendar text primary key,
    last_change bigint not null
  )`.execute(db);
  await sql`create table task_calendar_changes (
    calendar text not null,
    owner_id text not null references users (id) on delete cascade,
    task_id text not null,
    change bigint not null,
    deleted integer not null,
    uid text not null,
    resource_name text not null,
    primary key (calendar, task_id),
    unique (calendar, resource_name)
  )`.execute(db);
  await sql`create index task_calendar_changes_since on task_calendar_changes (calendar, change)`.execute(db);
  await sql`insert into task_calendar_counters (calendar, last_change)
    select owner_id, last_change + 1 from task_change_counters`.execute(db);
  await sql`insert into task_calendar_changes (calendar, owner_id, task_id, change, deleted, uid, resource_name)
    select c.owner_id, c.owner_id, c.task_id, c.change, c.deleted, c.uid, c.resource_name
    from task_changes c left join tasks t on t.id = c.task_id
    where t.id is null or t.list_id is null`.execute(db);
  await sql`insert into task_calendar_changes (calendar, owner_id, task_id, change, deleted, uid, resource_name)
    select c.owner_id, c.owner_id, c.task_id, k.last_change, 1, c.uid, c.resource_name
    from task_changes c
    join tasks t on t.id = c.task_id
    join task_calendar_counters k on k.calendar = c.owner_id
    where t.list_id is not null`.execute(db);
  await sql`insert into task_calendar_changes (calendar, owner_id, task_id, change, deleted, uid, resource_name)
    select 'list:' || t.list_id, c.owner_id, c.task_id, 1, 0, c.uid, c.resource_name
    from task_changes c join tasks t on t.id = c.task_id
    where t.list_id is not null`.execute(db);
  await sql`insert into task_calendar_counters (calendar, last_change)
    select distinct 'list:' || list_id, 1 from tasks where list_id is not null`.execute(db);
  await sql`drop table task_changes`.execute(db);
  await sql`drop table task_change_counters`.execute(db);
}
