import type { Kysely, Selectable } from 'kysely';
import type { Database, TaskNoticesTable } from '../storage/schema.ts';
import { peopleOfLists } from './lists.store.ts';
import type { TaskRow } from './tasks.store.ts';

export type NoticeRow = Selectable<TaskNoticesTable>;
/** A task whose notice is due, with its owner's address and zone and the people of its list (none for an unlisted task). */
export type DueTask = TaskRow & { owner_email: string; owner_zone: string | null; list_people: Array<{ id: string; email: string }> };

/** What the claim decides for one due task: the notice to record (none for a task it cannot mail) and the task's next notice. */
export type Claim = {
  notice: Omit<NoticeRow, 'created_at' | 'attempts' | 'next_attempt_at' | 'sent_at' | 'last_error' | 'delivered'> | null;
  nextNoticeTime: number | null;
};

/**
 * A send's result: when it went, or why not and when to try again (null: given up); either way the
 * channels it has reached, which a retry does not send to again.
 */
export type SendOutcome = { delivered: string[] } & ({ sent: true; at: number } | { sent: false; error: string; retryAt: number | null });

/**
 * The notice outbox. With `locking` (PostgreSQL) it locks the rows it works on with FOR UPDATE
 * SKIP LOCKED, so that several server instances share the work and none takes a row another
 * holds; SQLite has one server and one writer, so its reads need no lock.
 */
export function createNoticesStore(db: Kysely<Database>, { locking }: { locking: boolean }) {

  return {
    /**
     * In one transaction: the tasks whose notice is due, their notices recorded under unique keys,
     * and each task moved on to its next notice. Returns how many tasks it took.
     */
    async claimDue(now: number, limit: number, decide: (task: DueTask) => Claim): Promise<number> {
      return db.transaction().execute(async (trx) => {
        let query = trx
          .selectFrom('tasks')
          .innerJoin('users', 'users.id', 'tasks.owner_id')
          .selectAll('tasks')
          .select(['users.email as owner_email', 'users.timezone as owner_zone'])
          .where('tasks.next_notice_time', '<=', now)
          .orderBy('tasks.next_notice_time')
          .limit(limit);
        if (locking) query = query.forUpdate('tasks').skipLocked();
        const tasks = await query.execute();
        if (tasks.length === 0) return 0;
        // The list's people as they are at the claim: the notice goes to whoever's turn it is now.
        const people = await peopleOfLists(trx, [...new Set(tasks.flatMap((task) => (task.list_id === null ? [] : [task.list_id])))]);
        const due = tasks.map((task) => ({ ...task, list_people: people.filter((person) => person.list_id === task.list_id) }));
        const claims = due.map((task) => ({ task, claim: decide(task) }));
        const notices = claims.flatMap(({ claim }) => (claim.notice ? [claim.notice] : []));
        if (notices.length > 0) {
          await trx
            .insertInto('task_notices')
            .values(
              notices.map((notice) => ({
                ...notice,
                created_at: now,
                attempts: 0,
                next_attempt_at: now,
                sent_at: null,
                last_error: null,
                delivered: '[]',
              })),
            )
            .onConflict((oc) => oc.column('id').doNothing())
            .execute();
        }
        for (const { task, claim } of claims) {
          await trx
            .updateTable('tasks')
            .set({ last_notice_time: task.next_notice_time, next_notice_time: claim.nextNoticeTime, notice_set_by_user: 0 })
            .where('id', '=', task.id)
            // Only if no one moved it meanwhile (a snooze, a complete): theirs stands.
            .where('next_notice_time', '=', task.next_notice_time)
            .execute();
        }
        return due.length;
      });
    },

    /**
     * Sends up to `limit` due notices with `send`, `concurrency` at a time, and records each outcome.
     * On PostgreSQL each notice is locked in a transaction of its own from before the send until its
     * outcome is written: a crash rolls back only the notices still in flight, and they go again at
     * once; a notice another instance holds (or has sent meanwhile) is skipped. Returns how many it
     * sent or failed to send.
     */
    async deliverDue(
      now: number,
      limit: number,
      concurrency: number,
      send: (notice: NoticeRow) => Promise<SendOutcome>,
    ): Promise<number> {
      const due = await db
        .selectFrom('task_notices')
        .select('id')
        .where('sent_at', 'is', null)
        .where('next_attempt_at', '<=', now)
        .orderBy('next_attempt_at')
        .limit(limit)
        .execute();
      let taken = 0;
      const deliverOne = async (q: Kysely<Database>, id: string) => {
        let query = q
          .selectFrom('task_notices')
          .selectAll()
          .where('id', '=', id)
          .where('sent_at', 'is', null)
          .where('next_attempt_at', '<=', now);
        if (locking) query = query.forUpdate().skipLocked();
        const notice = await query.executeTakeFirst();
        if (!notice) return;
        await record(q, notice, await send(notice));
        taken += 1;
      };
      const queue = due.map((row) => row.id);
      const worker = async () => {
        for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
          const current = id;
          await (locking ? db.transaction().execute((trx) => deliverOne(trx, current)) : deliverOne(db, current));
        }
      };
      await Promise.all(Array.from({ length: concurrency }, worker));
      return taken;
    },

    /** When the scheduler has something to do next: the earliest task notice or retry, if any. */
    async nextWake(): Promise<number | null> {
      // The WHERE lets both databases answer from the partial index instead of reading every task.
      const task = await db
        .selectFrom('tasks')
        .select((eb) => eb.fn.min('next_notice_time').as('at'))
        .where('next_notice_time', 'is not', null)
        .executeTakeFirst();
      const retry = await db
        .selectFrom('task_notices')
        .select((eb) => eb.fn.min('next_attempt_at').as('at'))
        .where('sent_at', 'is', null)
        .executeTakeFirst();
      const times = [task?.at, retry?.at].filter((at): at is number => at !== null && at !== undefined).map(Number);
      return times.length > 0 ? Math.min(...times) : null;
    },
  };

  async function record(q: Kysely<Database>, notice: NoticeRow, outcome: SendOutcome): Promise<void> {
    if (outcome.sent) {
      await q
        .updateTable('task_notices')
        .set({ sent_at: outcome.at, attempts: notice.attempts + 1, last_error: null, delivered: JSON.stringify(outcome.delivered) })
        .where('id', '=', notice.id)
        .execute();
      await q
        .updateTable('tasks')
        .set({ notice_error: null })
        .where('id', '=', notice.task_id)
        .where('notice_error', 'is not', null)
        .execute();
      return;
    }
    await q
      .updateTable('task_notices')
      .set({
        attempts: notice.attempts + 1,
        last_error: outcome.error,
        delivered: JSON.stringify(outcome.delivered),
        // Given up: left unsent with no next attempt due, kept for the record.
        next_attempt_at: outcome.retryAt ?? Number.MAX_SAFE_INTEGER,
      })
      .where('id', '=', notice.id)
      .execute();
    await q.updateTable('tasks').set({ notice_error: outcome.error }).where('id', '=', notice.task_id).execute();
  }
}
export type NoticesStore = ReturnType<typeof createNoticesStore>;
