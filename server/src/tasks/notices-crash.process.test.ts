import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { freePort, killHard, startServerProcess as startServer } from '../test/server-process.ts';
import { createTestDatabase, testDialects } from '../test/test-app.ts';
import { startTestSmtp } from '../test/test-smtp.ts';
import { signUp } from '../test/server-accounts.ts';

const TASKS = 150;
const ACCEPTED_BEFORE_CRASH = 40;

describe.each(testDialects)('a server killed mid-delivery on %s', (dialect) => {
  it('sends every notice exactly once after it restarts', { timeout: 120_000 }, async () => {
    const database = await createTestDatabase(dialect);
    const smtp = await startTestSmtp();
    const env: Record<string, string> = {
      PORT: String(await freePort()),
      DATA_DIR: database.dataDir,
      SMTP_URL: smtp.url,
      ...(database.databaseUrl
        ? { DATABASE_URL: `${database.databaseUrl}?options=${encodeURIComponent(`-c search_path=${database.postgresSchema}`)}` }
        : {}),
    };
    let server = await startServer(env);
    try {
      // The first mails are taken; after them the SMTP server stops answering, so sends are in flight.
      let seen = 0;
      smtp.setDecision(() => (++seen <= ACCEPTED_BEFORE_CRASH ? 'accept' : 'hold'));

      const { idToken } = await signUp(server.baseUrl, { email: 'owner@example.org' });
      const due = new Date(Date.now() + 2_000).toISOString();
      for (let i = 0; i < TASKS; i += 1) {
        const created = await fetch(`${server.baseUrl}/schedule`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${idToken}` },
          body: JSON.stringify({ name: `Task ${i}`, first_schedule_time: due, overdue_notice: false }),
        });
        expect(created.status).toBe(200);
      }
      const deadline = Date.now() + 60_000;
      while (seen <= ACCEPTED_BEFORE_CRASH) {
        if (Date.now() > deadline) throw new Error(`only ${seen} mails reached the SMTP server; server said:\n${server.logs()}`);
        await sleep(50);
      }
      // Let the accepted sends be recorded; the held ones stay in flight.
      await sleep(1_000);
      expect(smtp.received).toHaveLength(ACCEPTED_BEFORE_CRASH);
      await killHard(server.child);

      smtp.setDecision(() => 'accept');
      server = await startServer(env);
      await smtp.waitFor(TASKS, 60_000);
      // Anything sent twice would arrive now.
      await sleep(2_000);
      const subjects = smtp.received.map((mail) => mail.subject).sort();
      expect(subjects).toEqual(Array.from({ length: TASKS }, (_, i) => `Task due: Task ${i}`).sort());
      expect(new Set(smtp.received.map((mail) => mail.messageId)).size).toBe(TASKS);
    } finally {
      await killHard(server.child);
      await smtp.close();
      await database.drop();
    }
  });
});
