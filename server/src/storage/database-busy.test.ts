import { DatabaseSync } from 'node:sqlite';
import { TaskPage } from '../../../contract/tasks.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, createTestDatabase, registerUser, type TestApp } from '../test/test-app.ts';
import { sqliteFileIn } from './database.ts';

// SQLite alone: PostgreSQL has no one writer for the whole database, and a load there locks no other table.
describe("a write while SQLite's writer is taken by another connection (a long catalogue load)", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let t: TestApp;
  let token: string;
  let other: DatabaseSync;

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    t = await buildTestApp(database);
    token = (await registerUser(t.app)).idToken;
    other = new DatabaseSync(sqliteFileIn(database.dataDir));
  });
  afterAll(async () => {
    other.close();
    await t.close();
    await database.drop();
  });

  const createTask = () =>
    t.app.inject({ method: 'POST', url: '/schedule/', headers: bearer(token), payload: { name: 'Water the plants', first_schedule_time: '2026-02-01T08:30' } });
  const taskCount = async () => TaskPage.parse((await t.app.inject({ url: '/schedule?pageSize=100', headers: bearer(token) })).json()).tasks.length;

  it('is refused with a 503 and Retry-After once the wait is over, changes nothing, and goes through once the writer is free', async () => {
    other.exec('BEGIN IMMEDIATE');
    let refused;
    try {
      refused = await createTask();
    } finally {
      other.exec('ROLLBACK');
    }
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.json()).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      message: 'The database is busy with a catalogue load; try again in a few seconds',
    });
    expect(await taskCount()).toBe(0);

    expect((await createTask()).statusCode).toBe(200);
    expect(await taskCount()).toBe(1);
  });
});
