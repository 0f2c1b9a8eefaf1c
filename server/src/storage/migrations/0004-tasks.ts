import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('tasks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('last_updated', 'bigint', (c) => c.notNull())
    .addColumn('first_schedule_time', 'bigint', (c) => c.notNull())
    .addColumn('schedule_end_time', 'bigint')
    .addColumn('schedule_type', 'text', (c) => c.notNull())
    .addColumn('anchor_time', 'bigint', (c) => c.notNull())
    .addColumn('occurrence_index', 'integer', (c) => c.notNull())
    .addColumn('schedule_time', 'bigint', (c) => c.notNull())
    .addColumn('next_notice_time', 'bigint')
    .addColumn('last_notice_time', 'bigint')
    .addColumn('emails', 'text', (c) => c.notNull())
    .addColumn('overdue_notice', 'integer', (c) => c.notNull())
    .addColumn('notice_hours', 'text', (c) => c.notNull())
    .addColumn('notice_in_workday', 'integer', (c) => c.notNull())
    .addColumn('comment', 'text', (c) => c.notNull())
    .addColumn('notice_error', 'text')
    .execute();
  await db.schema
    .createIndex('tasks_owner_due')
    .on('tasks')
    .columns(['owner_id', 'active', 'schedule_time', 'id'])
    .execute();
  // Inactive tasks have no next notice, so the scheduler's index holds only what it may send.
  await sql`create index tasks_next_notice on tasks (next_notice_time) where next_notice_time is not null`.execute(db);
  await db.schema
    .createTable('task_notices')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('task_id', 'text', (c) => c.notNull().references('tasks.id').onDelete('cascade'))
    .addColumn('recipients', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('due_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('sent_at', 'bigint')
    .addColumn('last_error', 'text')
    .execute();
  await sql`create index task_notices_unsent on task_notices (next_attempt_at) where sent_at is null`.execute(db);
  await db.schema.createIndex('task_notices_task').on('task_notices').column('task_id').execute();
}
