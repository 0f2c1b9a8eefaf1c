import { type Kysely, sql } from 'kysely';

/**
 * Repeat rules and checklists (issue 40, docs/decisions/0045-task-repeat-rules-and-checklists.md):
 * a custom RRULE where the six schedule codes do not say it, whether the next occurrence follows
 * the due time or the completion, the task's checklist (a JSON array of {id, text, done}), and the
 * checklist as it was at each completion.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table tasks add column rrule text`.execute(db);
  await sql`alter table tasks add column repeat_from text not null default 'due'`.execute(db);
  await sql`alter table tasks add column checklist text not null default '[]'`.execute(db);
  await sql`alter table task_completions add column checklist text`.execute(db);
}
