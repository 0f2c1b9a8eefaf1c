import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Task } from '../../../contract/tasks.ts';
import { manualClock } from '../test/manual-clock.ts';
import {
  bearer,
  buildTestApp,
  createTestDatabase,
  registerUser,
  type TestApp,
  type TestDatabase,
  testDialects,
} from '../test/test-app.ts';
import { startTestSmtp, type TestSmtp } from '../test/test-smtp.ts';

const HOUR = 3_600_000;
const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe.each(testDialects)('task notices on %s', (dialect) => {
  let database: TestDatabase & { drop(): Promise<void> };
  let smtp: TestSmtp;
  let t: TestApp;
  /** When, by the test clock, each accepted mail arrived. */
  let arrivals: number[];

  const start = async (at: number) => {
    t = await buildTestApp(database, {
      env: { ALLOW_SIGNUP: 'true', SMTP_URL: smtp.url, PUBLIC_URL: 'https://organiser.example.org' },
      clock: manualClock(at),
    });
    await t.app.ready();
  };

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    smtp = await startTestSmtp();
    await start(Date.UTC(2026, 2, 5, 12));
    return async () => {
      await t.close();
      await smtp.close();
      await database.drop();
    };
  });
  afterAll(() => smtp.setDecision(() => 'accept'));

  const accept = () => {
    arrivals = [];
    smtp.setDecision(() => {
      arrivals.push(t.clock.now());
      return 'accept';
    });
    return smtp.received.length;
  };

  /**
   * Moves the clock to `target` and lets the scheduler run as its wake-up fires. Tests stop one
   * minute before and at each expected notice, so a notice at any other time shows as a wrong count.
   */
  async function advanceTo(target: number) {
    await t.settled();
    t.clock.advance(Math.max(0, target - t.clock.now()));
    await t.settled();
  }

  /** A user in `timezone`; `token()` signs in again, since the test clock outruns a bearer token. */
  const user = async (timezone: string) => {
    const { idToken, user: me, password } = await registerUser(t.app);
    const response = await t.app.inject({ method: 'PUT', url: '/api/users/me', headers: bearer(idToken), payload: { timezone } });
    expect(response.statusCode).toBe(200);
    const token = async () => {
      const login = await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email: me.email, password } });
      expect(login.statusCode, login.body).toBe(200);
      return (login.json() as { idToken: string }).idToken;
    };
    return { token, email: me.email };
  };
  type User = Awaited<ReturnType<typeof user>>;
  const create = async (owner: User, body: Record<string, unknown>) => {
    const response = await t.app.inject({ method: 'POST', url: '/schedule', headers: bearer(await owner.token()), payload: body });
    expect(response.statusCode, response.body).toBe(200);
    await t.settled();
    return Task.parse(response.json());
  };
  const put = async (owner: User, id: string, body: Record<string, unknown>) => {
    const response = await t.app.inject({ method: 'PUT', url: `/schedule/${id}`, headers: bearer(await owner.token()), payload: body });
    expect(response.statusCode, response.body).toBe(200);
    await t.settled();
    return Task.parse(response.json());
  };
  const get = async (owner: User, id: string) =>
    Task.parse((await t.app.inject({ url: `/schedule/${id}`, headers: bearer(await owner.token()) })).json());

  it('mails a daily task at its notice hours, on workdays only, in the owner\'s zone, across the DST change', async () => {
    const before = accept();
    const owner = await user('America/New_York');
    const task = await create(owner, {
      name: 'Stand-up notes',
      // Friday 6 March 2026, 09:00 EST; New York moves to EDT on Sunday 8 March.
      first_schedule_time: '2026-03-06T09:00:00-05:00',
      notice_hours: [17, 9],
      notice_in_workday: true,
      emails: ['team@example.org'],
      comment: 'Post them in the channel',
    });
    const expected = [
      '2026-03-06T14:00:00.000Z', // Fri 09:00 EST: the occurrence is due
      '2026-03-06T22:00:00.000Z', // Fri 17:00 EST
      '2026-03-09T13:00:00.000Z', // Mon 09:00 EDT: the weekend skipped, the clocks moved
      '2026-03-09T21:00:00.000Z', // Mon 17:00 EDT
      '2026-03-10T13:00:00.000Z', // Tue 09:00 EDT
    ].map(Date.parse);
    for (const [i, time] of expected.entries()) {
      await advanceTo(time - MINUTE);
      expect(smtp.received.length - before, `nothing before notice ${i}`).toBe(i);
      await advanceTo(time);
      expect(smtp.received.length - before, `notice ${i}`).toBe(i + 1);
    }
    expect(arrivals.map(iso)).toEqual(expected.map(iso));
    const first = smtp.received[before]!;
    expect(first.to).toEqual(['team@example.org']);
    expect(first.subject).toBe('Task due: Stand-up notes');
    expect(first.raw).toContain('Due: Friday 6 March 2026, 09:00 (EST)');
    expect(first.raw).toContain('Post them in the channel');
    expect(first.raw).toContain(`https://organiser.example.org/task/${task.id}`);
    expect((await get(owner, task.id)).next_notice_time).toBe('2026-03-10T21:00:00.000Z');

    // Completed on Tuesday at 10:00: the next occurrence is Wednesday 09:00, and its notice with it.
    await advanceTo(Date.parse('2026-03-10T14:00:00Z'));
    const completed = await put(owner, task.id, { type: 'complete' });
    expect(completed).toMatchObject({ schedule_time: '2026-03-11T13:00:00.000Z', next_notice_time: '2026-03-11T13:00:00.000Z' });
    await advanceTo(Date.parse('2026-03-11T12:59:00Z'));
    expect(smtp.received.length - before).toBe(5);
    await advanceTo(Date.parse('2026-03-11T13:00:00Z'));
    expect(smtp.received.length - before).toBe(6);
    expect(smtp.received.at(-1)!.raw).toContain('Due: Wednesday 11 March 2026, 09:00 (EDT)');
  });

  it('sends one notice to the owner without overdue notices, and waits for a snooze', async () => {
    const before = accept();
    const owner = await user('Europe/London');
    const now = t.clock.now();
    const once = await create(owner, { name: 'Once', first_schedule_time: iso(now + HOUR), overdue_notice: false });
    const snoozed = await create(owner, { name: 'Snoozed', first_schedule_time: iso(now + HOUR) });
    await put(owner, snoozed.id, { type: 'update', key: 'next_notice_time', value: iso(now + 5 * HOUR) });
    const mine = () =>
      smtp.received
        .slice(before)
        .map((mail) => mail.subject)
        .filter((subject) => subject === 'Task due: Once' || subject === 'Task due: Snoozed');
    await advanceTo(now + HOUR);
    expect(mine()).toEqual(['Task due: Once']);
    expect(smtp.received.find((mail) => mail.subject === 'Task due: Once')!.to).toEqual([owner.email]);
    expect((await get(owner, once.id)).next_notice_time).toBeNull();
    await advanceTo(now + 5 * HOUR);
    expect(mine()).toEqual(['Task due: Once', 'Task due: Snoozed']);
    await advanceTo(now + 3 * 24 * HOUR);
    expect(mine().filter((subject) => subject === 'Task due: Once')).toHaveLength(1);
  });

  it('keeps a pending notice the owner set when another field is saved, until it is sent', async () => {
    const before = accept();
    const owner = await user('UTC');
    // Friday 20 March 2026, 12:00.
    await advanceTo(Date.UTC(2026, 2, 20, 12));
    const now = t.clock.now();
    const task = await create(owner, { name: 'Snoozed, then edited', first_schedule_time: iso(now + HOUR), notice_hours: [9] });
    const snoozedTo = iso(now + 5 * HOUR);
    await put(owner, task.id, { type: 'update', key: 'next_notice_time', value: snoozedTo });
    for (const [key, value] of [['notice_hours', [9, 17]], ['notice_in_workday', true], ['overdue_notice', true], ['comment', 'Line one\nLine two'], ['name', 'Snoozed, edited']] as const) {
      expect((await put(owner, task.id, { type: 'update', key, value })).next_notice_time, key).toBe(snoozedTo);
    }
    const mine = () => smtp.received.slice(before).filter((mail) => mail.subject === 'Task due: Snoozed, edited');
    await advanceTo(now + 5 * HOUR);
    expect(mine()).toHaveLength(1);
    // Sent on Friday at 17:00: the rules decide again, from the notice just sent (Monday, then Saturday).
    expect((await get(owner, task.id)).next_notice_time).toBe(iso(Date.UTC(2026, 2, 23, 9)));
    expect((await put(owner, task.id, { type: 'update', key: 'notice_in_workday', value: false })).next_notice_time).toBe(iso(Date.UTC(2026, 2, 21, 9)));
  });

  it('reminds of a one-off task until it is completed, and then never again', async () => {
    const before = accept();
    const owner = await user('UTC');
    // Monday 23 March 2026, 08:00.
    await advanceTo(Date.UTC(2026, 2, 23, 8));
    const task = await create(owner, { name: 'Post the letter', first_schedule_time: iso(Date.UTC(2026, 2, 23, 9)), schedule_type: 'o', notice_hours: [17] });
    const mine = () => smtp.received.slice(before).filter((mail) => mail.subject === 'Task due: Post the letter');
    await advanceTo(Date.UTC(2026, 2, 23, 9));
    expect(mine()).toHaveLength(1);
    expect(mine()[0]!.raw).toContain('Due: Monday 23 March 2026, 09:00 (UTC)');
    await advanceTo(Date.UTC(2026, 2, 23, 17));
    expect(mine()).toHaveLength(2);
    expect((await get(owner, task.id)).next_notice_time).toBe(iso(Date.UTC(2026, 2, 24, 17)));
    expect(await put(owner, task.id, { type: 'complete' })).toMatchObject({ active: false, next_notice_time: null });
    await advanceTo(Date.UTC(2026, 2, 30, 17));
    expect(mine()).toHaveLength(2);
  });

  it('after a downtime sends the missed notice once, not every slot it missed', async () => {
    const before = accept();
    const owner = await user('UTC');
    const due = t.clock.now() + HOUR;
    const task = await create(owner, {
      name: 'Hourly reminder',
      first_schedule_time: iso(due),
      notice_hours: Array.from({ length: 24 }, (_, hour) => hour),
    });
    await t.close();
    // Three days later, a new server on the same database.
    await start(due + 3 * 24 * HOUR + 30 * MINUTE);
    await t.settled();
    const mine = () => smtp.received.slice(before).filter((mail) => mail.subject === 'Task due: Hourly reminder');
    expect(mine()).toHaveLength(1);
    expect((await get(owner, task.id)).next_notice_time).toBe(iso(due + 3 * 24 * HOUR + HOUR));
    await advanceTo(due + 3 * 24 * HOUR + HOUR);
    expect(mine()).toHaveLength(2);
  });

  it('retries a failed send with backoff, shows the failure on the task, and sends it once', async () => {
    const before = accept();
    smtp.setDecision(() => 'reject');
    const owner = await user('UTC');
    const task = await create(owner, { name: 'Flaky', first_schedule_time: iso(t.clock.now()) });
    expect(smtp.received.length - before).toBe(0);
    expect((await get(owner, task.id)).notice_error).toMatch(/attempt 1\): .*Mailbox busy/);
    const failedAt = t.clock.now();
    await advanceTo(failedAt + MINUTE - 1_000);
    expect((await get(owner, task.id)).notice_error).toMatch(/attempt 1\)/);
    await advanceTo(failedAt + MINUTE);
    expect((await get(owner, task.id)).notice_error).toMatch(/attempt 2\)/);
    accept();
    await advanceTo(failedAt + MINUTE + 2 * MINUTE);
    expect(smtp.received.slice(before).filter((mail) => mail.subject === 'Task due: Flaky')).toHaveLength(1);
    expect((await get(owner, task.id)).notice_error).toBeNull();
  });

  it('without SMTP_URL writes each notice to the outbox as an .eml file', async () => {
    const outboxDatabase = await createTestDatabase(dialect);
    const outbox = await buildTestApp(outboxDatabase, { env: { ALLOW_SIGNUP: 'true' } });
    try {
      const { idToken, user: me } = await registerUser(outbox.app);
      const response = await outbox.app.inject({
        method: 'POST',
        url: '/schedule',
        headers: bearer(idToken),
        payload: { name: 'Into the outbox', first_schedule_time: iso(outbox.clock.now()) },
      });
      expect(response.statusCode).toBe(200);
      await outbox.settled();
      const dir = path.join(outboxDatabase.dataDir, 'outbox');
      const files = fs.readdirSync(dir);
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(new RegExp(`^${Task.parse(response.json()).id}\\.\\d+\\.\\d+\\.eml$`));
      const mail = fs.readFileSync(path.join(dir, files[0]!), 'utf8');
      expect(mail).toContain('Subject: Task due: Into the outbox');
      expect(mail).toContain(`To: ${me.email}`);
      // Mail's lines end with CRLF (RFC 5322 §2.1), in the body as in the headers.
      expect(mail.replaceAll('\r\n', '')).not.toMatch(/[\r\n]/);
      expect(mail.endsWith('\r\n')).toBe(true);
    } finally {
      await outbox.close();
      await outboxDatabase.drop();
    }
  });
});
