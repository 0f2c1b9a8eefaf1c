import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { openStorage } from '../storage/database.ts';
import { HEALTH_STALL_MS, healthSummary, type HealthWatch, watchHealth } from '../test/health-monitor.ts';
import { freePort, killHard, startServerProcess } from '../test/server-process.ts';
import { createTestDatabase, testDialects } from '../test/test-app.ts';
import { taskRow } from '../test/task-row.ts';
import type { TaskRow } from './tasks.store.ts';
import { signUp } from '../test/server-accounts.ts';

/** The first day JavaScript's dates hold: a daily series from there is 100 million days long. */
const EARLIEST_MS = Date.parse('-271821-04-20T00:00:00Z');
const FAR_TASKS = 4;
/** docs/budgets.md: health answers within this while any one abusive request pattern runs. */

describe.each(testDialects)('health while far-date tasks are completed and noticed, on %s', (dialect) => {
  it(`answers /api/health within ${HEALTH_STALL_MS} ms throughout`, { timeout: 120_000 }, async () => {
    const database = await createTestDatabase(dialect);
    const server = await startServerProcess({
      PORT: String(await freePort()),
      DATA_DIR: database.dataDir,
      ...(database.databaseUrl
        ? { DATABASE_URL: `${database.databaseUrl}?options=${encodeURIComponent(`-c search_path=${database.postgresSchema}`)}` }
        : {}),
    });
    // The server has migrated the database; this connection writes what an older version let in.
    const storage = await openStorage(database);
    let health: HealthWatch | undefined;
    try {
      const { idToken, user } = await signUp(server.baseUrl, { email: 'owner@example.org' });
      const complete = async (id: string) => {
        const completed = await fetch(`${server.baseUrl}/schedule/${id}`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${idToken}` },
          body: JSON.stringify({ type: 'complete' }),
          signal: AbortSignal.timeout(10_000),
        });
        expect(completed.status, await completed.text()).toBe(200);
      };

      const farTask = (noticeDue: boolean): TaskRow =>
        taskRow(user.uid, EARLIEST_MS, {
          name: 'Since the dawn of time',
          create_time: Date.now(),
          last_updated: Date.now(),
          next_notice_time: noticeDue ? EARLIEST_MS : null,
        });
      // A server in service has run these routes before: the first run of any request costs tens of
      // milliseconds of compiling, far dates or not, which is not what this measures.
      const ordinary = await fetch(`${server.baseUrl}/schedule`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${idToken}` },
        body: JSON.stringify({ name: 'Ordinary', first_schedule_time: new Date(Date.now() - 3_600_000).toISOString() }),
      });
      const { id: ordinaryId } = (await ordinary.json()) as { id: string };
      await complete(ordinaryId);

      const toComplete = Array.from({ length: FAR_TASKS }, () => farTask(false));
      const toNotice = Array.from({ length: FAR_TASKS }, () => farTask(true));
      await storage.db.insertInto('tasks').values([...toComplete, ...toNotice]).execute();

      health = await watchHealth(Number(server.env.PORT), 10);
      await sleep(200);
      // Each complete also wakes the scheduler, which finds the due notices of the others.
      for (const task of toComplete) await complete(task.id);
      const deadline = Date.now() + 20_000;
      for (;;) {
        const waiting = await storage.db
          .selectFrom('tasks')
          .select('id')
          .where('id', 'in', toNotice.map((task) => task.id))
          .where('next_notice_time', '<', Date.now())
          .execute();
        if (waiting.length === 0) break;
        if (Date.now() > deadline) throw new Error(`the scheduler did not get past the far notices; server said:\n${server.logs()}`);
        await sleep(50);
      }
      await sleep(200);
      const probes = await health.stop();

      expect(probes.length).toBeGreaterThan(10);
      expect(probes.filter((probe) => probe.status !== 200 || probe.ms >= HEALTH_STALL_MS), healthSummary(probes)).toEqual([]);
    } finally {
      await health?.stop();
      await killHard(server.child);
      await storage.close();
      await database.drop();
    }
  });
});
