import { describe, expect, it } from 'vitest';
import { TaskList } from '../../../contract/task-lists.ts';
import { Task } from '../../../contract/tasks.ts';
import { manualClock } from '../test/manual-clock.ts';
import { bearer, buildTestApp, createTestDatabase, registerUser, type TestApp, testDialects } from '../test/test-app.ts';
import { startNtfy } from '../test/notice-stand-ins.ts';
import { startTestSmtp } from '../test/test-smtp.ts';

const HOUR = 3_600_000;
const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
/** Monday 2 March 2026, 09:00 UTC: the first occurrence of every task here. */
const FIRST_DUE = Date.UTC(2026, 2, 2, 9);

describe.each(testDialects)('notices of household lists on %s', (dialect) => {
  it('reach whoever\'s turn it is, by mail beside the task\'s own addresses and on their ntfy topic, and skip a member removed', { timeout: 60_000 }, async () => {
    const database = await createTestDatabase(dialect);
    const smtp = await startTestSmtp();
    const ntfy = await startNtfy();
    const t: TestApp = await buildTestApp(database, {
      // The ntfy stand-in listens on loopback, which the server reaches only with PREVIEW_ALLOW_PRIVATE.
      env: { ALLOW_SIGNUP: 'true', SMTP_URL: smtp.url, PUBLIC_URL: 'https://organiser.example.org', PREVIEW_ALLOW_PRIVATE: 'true' },
      clock: manualClock(FIRST_DUE - 2 * HOUR),
    });
    try {
      await t.app.ready();
      const person = async (displayName: string) => {
        const { user, password } = await registerUser(t.app, { displayName });
        // The test clock outruns a bearer token: each call signs in again.
        const token = async () => {
          const login = await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email: user.email, password } });
          return (login.json() as { idToken: string }).idToken;
        };
        const call = async (method: 'POST' | 'PUT', url: string, payload: object) => {
          const response = await t.app.inject({ method, url, headers: bearer(await token()), payload });
          expect(response.statusCode, response.body).toBeLessThan(300);
          await t.settled();
          return response.json() as unknown;
        };
        return { id: user.uid, email: user.email, call };
      };
      const olive = await person('Olive');
      const sam = await person('Sam');
      await olive.call('PUT', '/api/notify/ntfy', { url: `${ntfy.origin}/olive` });
      await sam.call('PUT', '/api/notify/ntfy', { url: `${ntfy.origin}/sam` });
      /** The titles of the notices each person's ntfy topic got, in order. */
      const topics = () =>
        Object.fromEntries(['olive', 'sam'].map((topic) => [topic, ntfy.received.filter((one) => one.path === `/${topic}`).map((one) => String(one.headers.title))]));
      const list = TaskList.parse(await olive.call('POST', '/api/task-lists', { name: 'Home' }));
      await olive.call('PUT', `/api/task-lists/${list.id}/members`, { emails: [sam.email] });
      const dishes = Task.parse(
        await olive.call('POST', '/schedule', {
          name: 'Dishes',
          first_schedule_time: iso(FIRST_DUE),
          overdue_notice: false,
          list_id: list.id,
          rotation: [olive.id, sam.id],
        }),
      );
      const bins = Task.parse(await sam.call('POST', '/schedule', {
        name: 'Bins',
        first_schedule_time: iso(FIRST_DUE),
        overdue_notice: false,
        emails: ['house@example.org'],
        list_id: list.id,
        assignee_id: sam.id,
      }));
      const mailsOf = (subject: string) => smtp.received.filter((mail) => mail.subject === `Task due: ${subject}`).map((mail) => mail.to);
      const advanceTo = async (at: number) => {
        await t.settled();
        t.clock.advance(Math.max(0, at - t.clock.now()));
        await t.settled();
      };

      await advanceTo(FIRST_DUE - MINUTE);
      expect(mailsOf('Dishes')).toEqual([]);
      await advanceTo(FIRST_DUE);
      expect(mailsOf('Dishes')).toEqual([[olive.email]]);
      expect(mailsOf('Bins')).toEqual([['house@example.org', sam.email]]);

      // Olive does them on Monday: Tuesday's are Sam's; Sam does those: Wednesday's are Olive's.
      await advanceTo(FIRST_DUE + HOUR);
      expect(Task.parse(await olive.call('PUT', `/schedule/${dishes.id}`, { type: 'complete' })).turn_id).toBe(sam.id);
      await advanceTo(FIRST_DUE + 24 * HOUR);
      expect(mailsOf('Dishes')).toEqual([[olive.email], [sam.email]]);
      await advanceTo(FIRST_DUE + 25 * HOUR);
      expect(Task.parse(await sam.call('PUT', `/schedule/${dishes.id}`, { type: 'complete' })).turn_id).toBe(olive.id);
      await advanceTo(FIRST_DUE + 48 * HOUR);
      expect(mailsOf('Dishes')).toEqual([[olive.email], [sam.email], [olive.email]]);
      // Each topic gets the notices of its person's turns: the bins, not done yet, are Sam's.
      expect(topics()).toEqual({ olive: ['Dishes', 'Dishes'], sam: ['Bins', 'Dishes'] });

      // Thursday would be Sam's, but he has left the list: the rotation goes on without him.
      await advanceTo(FIRST_DUE + 49 * HOUR);
      await olive.call('PUT', `/schedule/${dishes.id}`, { type: 'complete' });
      await olive.call('PUT', `/api/task-lists/${list.id}/members`, { emails: [] });
      await olive.call('PUT', `/schedule/${bins.id}`, { type: 'complete' });
      await advanceTo(FIRST_DUE + 72 * HOUR);
      expect(mailsOf('Dishes')).toEqual([[olive.email], [sam.email], [olive.email], [olive.email]]);
      // The bins, assigned to Sam, go back to their own addresses alone.
      expect(mailsOf('Bins')).toEqual([['house@example.org', sam.email], ['house@example.org']]);
    } finally {
      await t.close();
      await smtp.close();
      await ntfy.close();
      await database.drop();
    }
  });
});
