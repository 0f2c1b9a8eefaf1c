import { Migrator, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrate, openStorage } from '../storage/database.ts';
import { migrationProvider } from '../storage/migration-provider.ts';
import { createTestDatabase, testDialects } from '../test/test-app.ts';

describe.each(testDialects)('migration 0040 (change counters per calendar) on %s', (dialect) => {
  it('keeps unlisted tasks and tombstones in their owner\'s calendar, and moves listed ones to their list\'s with a tombstone left', async () => {
    const database = await createTestDatabase(dialect);
    const old = await openStorage(database);
    try {
      const migrator = new Migrator({
        db: old.db,
        provider: migrationProvider(dialect),
        ...(database.postgresSchema ? { migrationTableSchema: database.postgresSchema } : {}),
      });
      expect((await migrator.migrateTo('0039-task-lists')).error).toBeUndefined();
      await sql`insert into users (id, email, display_name, created_at, updated_at) values ('u1', 'a@example.org', 'A', 1, 1)`.execute(old.db);
      await sql`insert into task_lists (id, owner_id, name, created) values ('l1', 'u1', 'Flat', 1)`.execute(old.db);
      for (const [id, list] of [['own', null], ['listed', 'l1']] as const) {
        await sql`insert into tasks (id, owner_id, name, active, create_time, last_updated, first_schedule_time, schedule_type, anchor_time,
            occurrence_index, schedule_time, notice_set_by_user, emails, overdue_notice, notice_hours, notice_in_workday, comment, list_id)
          values (${id}, 'u1', ${id}, 1, 1, 1, 1, 'o', 1, 0, 1, 0, '[]', 1, '[]', 0, '', ${list})`.execute(old.db);
      }
      await sql`insert into task_change_counters (owner_id, last_change) values ('u1', 7)`.execute(old.db);
      await sql`insert into task_changes (owner_id, task_id, change, deleted, uid, resource_name)
        values ('u1', 'own', 5, 0, 'own', 'own.ics'), ('u1', 'listed', 6, 0, 'phone-uid', 'phone.ics'), ('u1', 'gone', 7, 1, 'gone', 'gone.ics')`.execute(old.db);
      await migrate(old);

      const changes = await old.db.selectFrom('task_calendar_changes').select(['calendar', 'task_id', 'change', 'deleted', 'uid', 'resource_name']).orderBy('calendar').orderBy('task_id').execute();
      expect(changes.map((row) => ({ ...row, change: Number(row.change) }))).toEqual([
        { calendar: 'list:l1', task_id: 'listed', change: 1, deleted: 0, uid: 'phone-uid', resource_name: 'phone.ics' },
        { calendar: 'u1', task_id: 'gone', change: 7, deleted: 1, uid: 'gone', resource_name: 'gone.ics' },
        { calendar: 'u1', task_id: 'listed', change: 8, deleted: 1, uid: 'phone-uid', resource_name: 'phone.ics' },
        { calendar: 'u1', task_id: 'own', change: 5, deleted: 0, uid: 'own', resource_name: 'own.ics' },
      ]);
      const counters = await old.db.selectFrom('task_calendar_counters').selectAll().orderBy('calendar').execute();
      expect(counters.map((row) => ({ ...row, last_change: Number(row.last_change) }))).toEqual([
        { calendar: 'list:l1', last_change: 1 },
        { calendar: 'u1', last_change: 8 },
      ]);
    } finally {
      await old.close();
      await database.drop();
    }
  });
});
