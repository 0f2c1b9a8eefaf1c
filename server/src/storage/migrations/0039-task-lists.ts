import { type Kysely, sql } from 'kysely';

/**
 * Household lists (issue 40): named lists of tasks, the members each is shared with, and on each
 * task its list, its assignee and its rotation with the turn counter that says whose turn it is
 * (docs/decisions/0048-household-lists.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table task_lists (
    id text primary key,
    owner_id text not null references users (id) on delete cascade,
    name text not null,
    created bigint not null
  )`.execute(db);
  await sql`create index task_lists_owner on task_lists (owner_id)`.execute(db);
  await sql`create table task_list_members (
    list_id text not null references task_lists (id) on delete cascade,
    user_id text not null references users (id) on delete cascade,
    primary key (list_id, user_id)
  )`.execute(db);
  // "Which lists are shared with me": every task read asks it.
  await sql`create index task_list_members_user on task_list_members (user_id, list_id)`.execute(db);
  // A list that goes with its owner's account leaves its tasks to their creators.
  await sql`alter table tasks add column list_id text references task_lists (id) on delete set null`.execute(db);
  await sql`alter table tasks add column assignee_id text`.execute(db);
  // JSON array of user ids, in turn order; the current turn is rotation_turn modulo the members still there.
  await sql`alter table tasks add column rotation text not null default '[]'`.execute(db);
  await sql`alter table tasks add column rotation_turn integer not null default 0`.execute(db);
  await sql`create index tasks_list_due on tasks (list_id, active, schedule_time, id) where list_id is not null`.execute(db);
}
