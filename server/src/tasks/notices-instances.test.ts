import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { manualClock } from '../test/manual-clock.ts';
import { bearer, buildTestApp, createTestDatabase, registerUser, testDialects } from '../test/test-app.ts';
import { startTestSmtp } from '../test/test-smtp.ts';

const TASKS = 400;

describe.runIf(testDialects.includes('postgres'))('two server instances on one PostgreSQL database', () => {
  it('share the due notices and send none twice', { timeout: 120_000 }, async () => {
    const database = await createTestDatabase('postgres');
    const smtp = await startTestSmtp();
    const start = Date.UTC(2026, 4, 4, 8);
    const env = { ALLOW_SIGNUP: 'true', SMTP_URL: smtp.url };
    // Each instance signs its mail, to show that both took a share.
    const first = await buildTestApp(database, { env: { ...env, MAIL_FROM: 'first@example.org' }, clock: manualClock(start) });
    const second = await buildTestApp(database, { env: { ...env, MAIL_FROM: 'second@example.org' }, clock: manualClock(start) });
    try {
      await Promise.all([first.app.ready(), second.app.ready()]);
      const { idToken } = await registerUser(first.app);
      const due = new Date(start + 3_600_000).toISOString();
      for (let i = 0; i < TASKS; i += 1) {
        const app = i % 2 === 0 ? first.app : second.app;
        const response = await app.inject({
          method: 'POST',
          url: '/schedule',
          headers: bearer(idToken),
          payload: { name: `Task ${i}`, first_schedule_time: due, overdue_notice: false },
        });
        expect(response.statusCode).toBe(200);
      }
      smtp.setDecision(() => 'accept');
      // Both wake at the same moment and race for the same rows.
      first.clock.advance(3_600_000);
      second.clock.advance(3_600_000);
      await Promise.all([first.settled(), second.settled()]);
      await smtp.waitFor(TASKS, 30_000);

      expect(smtp.received).toHaveLength(TASKS);
      expect(new Set(smtp.received.map((mail) => mail.subject)).size).toBe(TASKS);
      expect(new Set(smtp.received.map((mail) => mail.messageId)).size).toBe(TASKS);
      const unsent = await sql<{ count: number }>`select count(*)::int as count from task_notices where sent_at is null`.execute(first.storage.db);
      expect(unsent.rows[0]?.count).toBe(0);
      const byFirst = smtp.received.filter((mail) => mail.from === 'first@example.org').length;
      expect(byFirst).toBeGreaterThan(0);
      expect(byFirst).toBeLessThan(TASKS);
    } finally {
      await first.close();
      await second.close();
      await smtp.close();
      await database.drop();
    }
  });
});
