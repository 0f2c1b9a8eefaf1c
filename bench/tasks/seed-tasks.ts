import { randomUUID } from 'node:crypto';
import { DatabaseSync } from 'node:sqlite';

/**
 * Writes `count` daily tasks straight into a server's SQLite file (WAL lets the server run on),
 * due at `firstDue` plus `spreadMs` steps, with their first notice at the due time.
 */
export function seedTasks(file: string, ownerId: string, count: number, firstDue: number, spreadMs: number): void {
  const db = new DatabaseSync(file);
  db.exec('pragma busy_timeout = 10000');
  const insert = db.prepare(`insert into tasks (id, owner_id, name, active, create_time, last_updated, first_schedule_time,
    schedule_end_time, schedule_type, anchor_time, occurrence_index, schedule_time, next_notice_time, last_notice_time,
    emails, overdue_notice, notice_hours, notice_in_workday, comment, notice_error)
    values (?, ?, ?, 1, ?, ?, ?, null, 'd', ?, 0, ?, ?, null, '[]', 0, '[]', 0, '', null)`);
  const now = Date.now();
  db.exec('begin');
  for (let i = 0; i < count; i += 1) {
    const due = firstDue + i * spreadMs;
    insert.run(randomUUID(), ownerId, `Bench task ${i}`, now, now, due, due, due, due);
  }
  db.exec('commit');
  db.close();
}
