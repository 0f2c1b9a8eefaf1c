import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects } from '../test/test-app.ts';
import { startTestSmtp } from './test-smtp.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const TASKS = 150;
const ACCEPTED_BEFORE_CRASH = 40;

async function freePort(): Promise<number> {
  const probe = net.createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => probe.once('listening', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** The real server process, as `npm start` runs it. */
async function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; baseUrl: string }> {
  const child = spawn(process.execPath, ['server/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr?.on('data', (chunk) => (errors += chunk));
  const baseUrl = `http://127.0.0.1:${env.PORT}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${errors}`);
    const up = await fetch(`${baseUrl}/api/health`).then((r) => r.ok, () => false);
    if (up) return { child, baseUrl };
    if (Date.now() > deadline) throw new Error(`server did not start: ${errors}`);
    await sleep(100);
  }
}

async function killHard(child: ChildProcess) {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

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

      const register = await fetch(`${server.baseUrl}/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'owner@example.org', password: 'a long enough password', displayName: 'Owner' }),
      });
      expect(register.status).toBe(200);
      const { idToken } = (await register.json()) as { idToken: string };
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
        if (Date.now() > deadline) throw new Error(`only ${seen} mails reached the SMTP server`);
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
