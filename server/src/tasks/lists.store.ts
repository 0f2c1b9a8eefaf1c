import { randomUUID } from 'node:crypto';
import { type ExpressionBuilder, type Kysely, type Selectable, sql } from 'kysely';
import type { Database, TaskListsTable } from '../storage/schema.ts';
import { parseChecklist } from './checklists.ts';
import { calendarOfTask, recordTaskChange } from './task-change-record.ts';

export type TaskListRow = Selectable<TaskListsTable>;
/** One of a list's people: its owner (`owner` 1) or a member. */
export type ListPersonRow = { list_id: string; id: string; display_name: string; email: string; owner: number };

/**
 * The task `tasks` is the viewer's: their own unlisted task, or a task of a list they own or are a
 * member of, read from the membership as it is now. Every read and write of a task puts this in
 * its WHERE, so a task the viewer may not see is not found, like one that does not exist.
 */
export const taskVisibleTo = (viewerId: string) => (eb: ExpressionBuilder<Database, 'tasks'>) =>
  eb.or([
    eb.and([eb('tasks.list_id', 'is', null), eb('tasks.owner_id', '=', viewerId)]),
    eb('tasks.list_id', 'in', eb.selectFrom('task_lists').select('task_lists.id').where('task_lists.owner_id', '=', viewerId)),
    eb('tasks.list_id', 'in', eb.selectFrom('task_list_members').select('task_list_members.list_id').where('task_list_members.user_id', '=', viewerId)),
  ]);

/** The ids of the lists the viewer owns or is a member of, as a subquery. */
export const listIdsOf = (db: Kysely<Database>, viewerId: string) =>
  db
    .selectFrom('task_lists')
    .select('task_lists.id as list_id')
    .where('task_lists.owner_id', '=', viewerId)
    .union(db.selectFrom('task_list_members').select('task_list_members.list_id').where('task_list_members.user_id', '=', viewerId));

/** The list `task_lists` is the viewer's own or shared with them. */
const listVisibleTo = (viewerId: string) => (eb: ExpressionBuilder<Database, 'task_lists'>) =>
  eb.or([
    eb('task_lists.owner_id', '=', viewerId),
    eb.exists(
      eb
        .selectFrom('task_list_members')
        .select('task_list_members.list_id')
        .whereRef('task_list_members.list_id', '=', 'task_lists.id')
        .where('task_list_members.user_id', '=', viewerId),
    ),
  ]);

/** The people of the lists `listIds`: each list's owner, then its members by name. */
export async function peopleOfLists(db: Kysely<Database>, listIds: readonly string[]): Promise<ListPersonRow[]> {
  if (listIds.length === 0) return [];
  const owners = db
    .selectFrom('task_lists')
    .innerJoin('users', 'users.id', 'task_lists.owner_id')
    .select(['task_lists.id as list_id', 'users.id', 'users.display_name', 'users.email', sql<number>`1`.as('owner')])
    .where('task_lists.id', 'in', listIds);
  const members = db
    .selectFrom('task_list_members')
    .innerJoin('users', 'users.id', 'task_list_members.user_id')
    .select(['task_list_members.list_id', 'users.id', 'users.display_name', 'users.email', sql<number>`0`.as('owner')])
    .where('task_list_members.list_id', 'in', listIds);
  const rows = await owners.unionAll(members).orderBy('list_id').orderBy('owner', 'desc').orderBy('display_name').orderBy('id').execute();
  return rows.map((row) => ({ ...row, owner: Number(row.owner) }));
}

/**
 * Household lists and their members. Only a list's owner renames, deletes or shares it; every
 * function names the person asking in its query.
 */
export function createListsStore(db: Kysely<Database>) {
  return {
    /** The viewer's lists and those shared with them, by name. */
    visible(viewerId: string): Promise<TaskListRow[]> {
      return db.selectFrom('task_lists').selectAll().where(listVisibleTo(viewerId)).orderBy('name').orderBy('id').execute();
    },

    find(viewerId: string, id: string): Promise<TaskListRow | undefined> {
      return db.selectFrom('task_lists').selectAll().where('id', '=', id).where(listVisibleTo(viewerId)).executeTakeFirst();
    },

    people: (listIds: readonly string[]) => peopleOfLists(db, listIds),

    async create(ownerId: string, name: string, at: number): Promise<string> {
      const id = randomUUID();
      await db.insertInto('task_lists').values({ id, owner_id: ownerId, name, created: at }).execute();
      return id;
    },

    /** False when the owner has no such list. */
    async rename(ownerId: string, id: string, name: string): Promise<boolean> {
      const result = await db.updateTable('task_lists').set({ name }).where('owner_id', '=', ownerId).where('id', '=', id).executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** Deletes the owner's list; its tasks go back to their creators' own tasks, unassigned. False when the owner has no such list. */
    async remove(ownerId: string, id: string): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const owned = await trx.selectFrom('task_lists').select('id').where('owner_id', '=', ownerId).where('id', '=', id).executeTakeFirst();
        if (!owned) return false;
        const moved = await trx
          .updateTable('tasks')
          .set({ list_id: null, assignee_id: null, rotation: '[]', rotation_turn: 0 })
          .where('list_id', '=', id)
          .returning(['id', 'owner_id', 'list_id'])
          .execute();
        // Each task goes to its creator's own calendar, under the name their clients knew it by in the list's.
        for (const task of moved) await recordTaskChange(trx, task, { movedFrom: calendarOfTask({ owner_id: task.owner_id, list_id: id }) });
        const calendar = calendarOfTask({ owner_id: ownerId, list_id: id });
        await trx.deleteFrom('task_calendar_changes').where('calendar', '=', calendar).execute();
        await trx.deleteFrom('task_calendar_counters').where('calendar', '=', calendar).execute();
        await trx.deleteFrom('task_lists').where('owner_id', '=', ownerId).where('id', '=', id).execute();
        return true;
      });
    },

    /**
     * Replaces the members of the owner's list with the accounts of `emails`. `unknown` names the
     * addresses that are no other account in use here (the owner's own among them); then nothing changes.
     */
    async setMembers(ownerId: string, id: string, emails: readonly string[]): Promise<{ found: boolean; unknown: string[] }> {
      return db.transaction().execute(async (trx) => {
        const owned = await trx.selectFrom('task_lists').select('id').where('owner_id', '=', ownerId).where('id', '=', id).executeTakeFirst();
        if (!owned) return { found: false, unknown: [] };
        const accounts =
          emails.length === 0
            ? []
            : await trx
                .selectFrom('users')
                .select(['id', 'email'])
                .where('email', 'in', emails)
                .where('id', '<>', ownerId)
                .where('disabled_at', 'is', null)
                .execute();
        const known = new Set(accounts.map((account) => account.email));
        const unknown = emails.filter((email) => !known.has(email));
        if (unknown.length > 0) return { found: true, unknown };
        await trx.deleteFrom('task_list_members').where('list_id', '=', id).execute();
        if (accounts.length > 0) {
          await trx.insertInto('task_list_members').values(accounts.map((account) => ({ list_id: id, user_id: account.id }))).execute();
        }
        return { found: true, unknown: [] };
      });
    },

    /**
     * Before an account is deleted, what the database's cascades would do silently, done so that
     * the other people's CalDAV clients hear of it: the account's lists are deleted as their owner
     * deletes one (each task goes to whoever made it), and its tasks in others' lists leave
     * tombstones there. A tombstone is kept under the list's owner, since the account's rows go.
     */
    async forgetAccount(userId: string): Promise<void> {
      const owned = await db.selectFrom('task_lists').select('id').where('owner_id', '=', userId).execute();
      for (const list of owned) await this.remove(userId, list.id);
      await db.transaction().execute(async (trx) => {
        const listed = await trx
          .selectFrom('tasks')
          .innerJoin('task_lists', 'task_lists.id', 'tasks.list_id')
          .select(['tasks.id', 'tasks.list_id', 'tasks.checklist', 'task_lists.owner_id as list_owner'])
          .where('tasks.owner_id', '=', userId)
          .execute();
        for (const task of listed) {
          const calendar = calendarOfTask({ owner_id: task.list_owner, list_id: task.list_id });
          await trx
            .updateTable('task_calendar_changes')
            .set({ owner_id: task.list_owner })
            .where('calendar', '=', calendar)
            .where((eb) => eb.or([eb('task_id', '=', task.id), eb('task_id', 'like', `${task.id}/item/%`)]))
            .execute();
          const goneItems = parseChecklist(task.checklist).map((item) => item.id);
          await recordTaskChange(trx, { id: task.id, owner_id: task.list_owner, list_id: task.list_id }, { deleted: true, goneItems });
          await trx.deleteFrom('tasks').where('id', '=', task.id).execute();
        }
      });
    },
  };
}
export type ListsStore = ReturnType<typeof createListsStore>;
