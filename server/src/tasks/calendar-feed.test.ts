import { beforeAll, describe, expect, it } from 'vitest';
import { CalendarStatus, CalendarSubscription } from '../../../contract/calendar.ts';
import { ErrorReply } from '../../../contract/errors.ts';
import { Task } from '../../../contract/tasks.ts';
import { parseCalendar, type ParsedEvent } from '../test/calendar-parser.ts';
import { manualClock } from '../test/manual-clock.ts';
import { bearer, registerUser, type TestApp, testAppOn, testDialects } from '../test/test-app.ts';

const MINUTE = 60_000;
/** Friday 20 February 2026, 07:00 in New York: the feed runs from 21 January 2026 to 20 February 2027. */
const NOW = Date.UTC(2026, 1, 20, 12);

describe.each(testDialects)('calendar feed on %s', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await testAppOn(dialect, { env: { ALLOW_SIGNUP: 'true' }, clock: manualClock(NOW) });
    return t.close;
  });

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });
  const userIn = async (timezone: string) => {
    const { idToken } = await registerUser(t.app);
    expect((await call('PUT', '/api/users/me', idToken, { timezone })).statusCode).toBe(200);
    return idToken;
  };
  const create = async (token: string, body: Record<string, unknown>) => {
    const response = await call('POST', '/schedule', token, body);
    expect(response.statusCode, response.body).toBe(200);
    return Task.parse(response.json());
  };
  const subscribe = async (token: string) => {
    const response = await call('POST', '/api/users/me/calendar', token);
    expect(response.statusCode, response.body).toBe(200);
    const { url } = CalendarSubscription.parse(response.json());
    return new URL(url).pathname;
  };
  const feed = async (path: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: path, headers });
  const eventsOf = async (path: string) => {
    const response = await feed(path);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/calendar; charset=utf-8');
    // Every content line ends with CRLF, the last one too (RFC 5545 §3.1).
    expect(response.body.replaceAll('\r\n', '')).not.toMatch(/[\r\n]/);
    expect(response.body.endsWith('END:VCALENDAR\r\n')).toBe(true);
    return parseCalendar(response.body);
  };
  const ofTask = (events: ParsedEvent[], id: string) => events.filter((event) => event.url?.endsWith(`/task/${id}`));
  const startOn = (events: ParsedEvent[], localDate: string) => events.find((event) => event.localStart.startsWith(localDate))?.start;

  it('writes a daily task in New York at 09:00 local across both DST changes, with the zone\'s VTIMEZONE', async () => {
    const token = await userIn('America/New_York');
    const task = await create(token, { name: 'Water the plants', first_schedule_time: '2026-03-06T14:00:00Z', comment: 'The ferns first' });
    const calendar = await eventsOf(await subscribe(token));
    expect(calendar.timezones).toEqual(['America/New_York']);
    const events = ofTask(calendar.events, task.id);
    expect(events.every((event) => event.tzid === 'America/New_York' && event.localStart.endsWith('T09:00:00'))).toBe(true);
    // Spring forward on 8 March 2026, fall back on 1 November 2026.
    expect(startOn(events, '2026-03-07')).toBe('2026-03-07T14:00:00Z');
    expect(startOn(events, '2026-03-08')).toBe('2026-03-08T13:00:00Z');
    expect(startOn(events, '2026-10-31')).toBe('2026-10-31T13:00:00Z');
    expect(startOn(events, '2026-11-01')).toBe('2026-11-01T14:00:00Z');
    // Up to twelve months ahead: the last is 19 February 2027 (the 20th's 09:00 is past the window's end at 07:00).
    expect(events[0]?.localStart).toBe('2026-03-06T09:00:00');
    expect(events.at(-1)?.localStart).toBe('2027-02-19T09:00:00');
    expect(events).toHaveLength(351);
    expect(new Set(events.map((event) => event.uid)).size).toBe(351);
    const first = events[0];
    expect(first?.summary).toBe('Water the plants');
    expect(first?.description).toContain('The ferns first');
    expect(first?.url).toMatch(new RegExp(`^http://[^/]+/task/${task.id}$`));
    expect(first?.description).toContain(first?.url);
    expect(first?.end).toBe('2026-03-06T14:30:00Z');
  });

  it('writes a daily task in London across both of its DST changes', async () => {
    const token = await userIn('Europe/London');
    const task = await create(token, { name: 'Stand-up', first_schedule_time: '2026-03-01T09:00:00Z' });
    const calendar = await eventsOf(await subscribe(token));
    expect(calendar.timezones).toEqual(['Europe/London']);
    const events = ofTask(calendar.events, task.id);
    expect(events.every((event) => event.localStart.endsWith('T09:00:00'))).toBe(true);
    expect(startOn(events, '2026-03-28')).toBe('2026-03-28T09:00:00Z');
    expect(startOn(events, '2026-03-29')).toBe('2026-03-29T08:00:00Z');
    expect(startOn(events, '2026-10-24')).toBe('2026-10-24T08:00:00Z');
    expect(startOn(events, '2026-10-25')).toBe('2026-10-25T09:00:00Z');
  });

  it('clamps a monthly task on the 31st to each month\'s last day, without drift', async () => {
    const token = await userIn('America/New_York');
    const task = await create(token, { name: 'Pay rent', first_schedule_time: '2026-01-31T15:00:00Z', schedule_type: 'm' });
    const events = ofTask((await eventsOf(await subscribe(token))).events, task.id);
    expect(events.map((event) => event.localStart)).toEqual(
      [
        '2026-01-31', '2026-02-28', '2026-03-31', '2026-04-30', '2026-05-31', '2026-06-30', '2026-07-31',
        '2026-08-31', '2026-09-30', '2026-10-31', '2026-11-30', '2026-12-31', '2027-01-31',
      ].map((date) => `${date}T10:00:00`),
    );
  });

  it('gives an alarm for each notice: at the due time, or on Monday for a workday task due at the weekend, then each notice hour', async () => {
    const token = await userIn('America/New_York');
    // Saturday 7 March 2026, 09:00 EST; the clocks go forward on the Sunday between.
    const workday = await create(token, {
      name: 'Weekly report',
      first_schedule_time: '2026-03-07T14:00:00Z',
      schedule_type: 'w',
      notice_in_workday: true,
      notice_hours: [8, 18],
    });
    const everyDay = await create(token, { name: 'Stretch', first_schedule_time: '2026-03-07T14:00:00Z', overdue_notice: false, notice_hours: [8] });
    const events = (await eventsOf(await subscribe(token))).events;
    const [saturday] = ofTask(events, workday.id);
    expect(saturday?.start).toBe('2026-03-07T14:00:00Z');
    // Monday 09:00 EDT, Monday 18:00 EDT, Tuesday 08:00 EDT.
    expect(saturday?.alarms.toSorted()).toEqual(['2026-03-09T13:00:00Z', '2026-03-09T22:00:00Z', '2026-03-10T12:00:00Z']);
    // Without overdue notices the only notice is the first, at the due time.
    const [stretch] = ofTask(events, everyDay.id);
    expect(stretch?.alarms).toEqual(['2026-03-07T14:00:00Z']);
  });

  it('ends with the schedule, marks completed occurrences and keeps every UID across completes and edits', async () => {
    const token = await userIn('America/New_York');
    const path = await subscribe(token);
    const task = await create(token, {
      name: 'Feed the cat',
      first_schedule_time: '2026-02-19T14:00:00Z',
      schedule_end_time: '2026-02-24T14:00:00Z',
      comment: 'Half a tin',
    });
    const before = ofTask((await eventsOf(path)).events, task.id);
    // The current occurrence (yesterday, overdue), then the rest up to the end.
    expect(before.map((event) => event.localStart.slice(0, 10))).toEqual(['2026-02-19', '2026-02-20', '2026-02-21', '2026-02-22', '2026-02-23', '2026-02-24']);
    expect(before.every((event) => event.completed === null && !event.summary.startsWith('✓'))).toBe(true);

    expect((await call('PUT', `/schedule/${task.id}`, token, { type: 'complete' })).statusCode).toBe(200);
    expect((await call('PUT', `/schedule/${task.id}`, token, { type: 'update', key: 'name', value: 'Feed the cats' })).statusCode).toBe(200);
    expect((await call('PUT', `/schedule/${task.id}`, token, { type: 'update', key: 'comment', value: 'A whole tin' })).statusCode).toBe(200);
    const after = ofTask((await eventsOf(path)).events, task.id);
    expect(after.map((event) => event.uid)).toEqual(before.map((event) => event.uid));
    const [done, next] = after;
    expect(done?.summary).toBe('✓ Feed the cats');
    expect(done?.categories).toEqual(['Completed']);
    expect(done?.completed).toBe('20260220T120000Z');
    expect(done?.alarms).toEqual([]);
    expect(next?.summary).toBe('Feed the cats');
    expect(next?.description).toContain('A whole tin');
    expect(next?.alarms).toEqual([next?.start]);

    // Completed past its end the task is inactive: only what was completed stays.
    for (let left = 5; left > 0; left -= 1) {
      expect(Task.parse((await call('PUT', `/schedule/${task.id}`, token, { type: 'complete' })).json()).active).toBe(left > 1);
    }
    const ended = ofTask((await eventsOf(path)).events, task.id);
    expect(ended.map((event) => event.uid)).toEqual(before.map((event) => event.uid));
    expect(ended.every((event) => event.summary === '✓ Feed the cats' && event.alarms.length === 0)).toBe(true);
  });

  it('writes a one-off task as one event with its alarms, and keeps it, marked completed, once it is done', async () => {
    const token = await userIn('America/New_York');
    const path = await subscribe(token);
    const task = await create(token, { name: 'Renew the passport', first_schedule_time: '2026-03-02T14:00:00Z', schedule_type: 'o', notice_hours: [17] });
    const before = ofTask((await eventsOf(path)).events, task.id);
    expect(before.map((event) => [event.start, event.summary, event.alarms])).toEqual([
      ['2026-03-02T14:00:00Z', 'Renew the passport', ['2026-03-02T14:00:00Z', '2026-03-02T22:00:00Z']],
    ]);
    const done = Task.parse((await call('PUT', `/schedule/${task.id}`, token, { type: 'complete' })).json());
    expect(done.active).toBe(false);
    const after = ofTask((await eventsOf(path)).events, task.id);
    expect(after.map((event) => [event.uid, event.summary, event.categories, event.completed, event.alarms])).toEqual([
      [before[0]?.uid, '✓ Renew the passport', ['Completed'], '20260220T120000Z', []],
    ]);
  });

  it('answers 304 to the ETag or the Last-Modified date it gave while the feed is unchanged, and 200 after a change', async () => {
    const token = await userIn('America/New_York');
    const path = await subscribe(token);
    const task = await create(token, { name: 'Read', first_schedule_time: '2026-03-01T23:00:00Z' });
    const first = await feed(path);
    const etag = String(first.headers.etag);
    const lastModified = String(first.headers['last-modified']);
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(new Date(lastModified).getTime()).toBe(Math.floor(t.clock.now() / 1000) * 1000);

    t.clock.advance(10 * MINUTE);
    const byEtag = await feed(path, { 'if-none-match': etag });
    expect(byEtag.statusCode).toBe(304);
    expect(byEtag.body).toBe('');
    expect(byEtag.headers.etag).toBe(etag);
    expect((await feed(path, { 'if-modified-since': lastModified })).statusCode).toBe(304);
    // As fetch sends it: the Fetch standard adds no-cache to a conditional request.
    expect((await feed(path, { 'if-none-match': etag, 'cache-control': 'no-cache' })).statusCode).toBe(304);
    expect((await feed(path)).headers['last-modified']).toBe(lastModified);

    expect((await call('PUT', `/schedule/${task.id}`, token, { type: 'update', key: 'name', value: 'Read a book' })).statusCode).toBe(200);
    const changed = await feed(path, { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(new Date(String(changed.headers['last-modified'])).getTime()).toBeGreaterThan(new Date(lastModified).getTime());
    expect((await feed(path, { 'if-modified-since': lastModified })).statusCode).toBe(200);
    // A deleted task changes the feed too, though no task row is left to say when.
    const etagBefore = String((await feed(path)).headers.etag);
    expect((await call('DELETE', `/schedule/${task.id}`, token)).statusCode).toBe(204);
    const deleted = await feed(path, { 'if-none-match': etagBefore });
    expect(deleted.statusCode).toBe(200);
    expect(parseCalendar(deleted.body).events).toEqual([]);
  });

  it('serves only the owner\'s tasks; a new address revokes the old one, turning it off revokes it, and both answer 404', async () => {
    const alice = await userIn('America/New_York');
    const bob = await userIn('America/New_York');
    await create(alice, { name: 'Alice only', first_schedule_time: '2026-03-01T14:00:00Z', schedule_type: 'y' });
    expect(CalendarStatus.parse((await call('GET', '/api/users/me/calendar', alice)).json())).toEqual({ enabled: false, created_at: null });
    const old = await subscribe(alice);
    expect(old).toMatch(/^\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    expect(CalendarStatus.parse((await call('GET', '/api/users/me/calendar', alice)).json())).toEqual({
      enabled: true,
      created_at: new Date(t.clock.now()).toISOString(),
    });
    expect((await eventsOf(await subscribe(bob))).events).toEqual([]);

    const current = await subscribe(alice);
    expect(current).not.toBe(old);
    const revoked = await feed(old);
    expect(revoked.statusCode).toBe(404);
    expect(ErrorReply.parse(revoked.json())).toEqual({ statusCode: 404, error: 'Not Found', message: 'Calendar not found' });
    expect((await eventsOf(current)).events.map((event) => event.summary)).toEqual(['Alice only']);

    expect((await call('DELETE', '/api/users/me/calendar', alice)).statusCode).toBe(204);
    expect((await feed(current)).statusCode).toBe(404);
    expect(CalendarStatus.parse((await call('GET', '/api/users/me/calendar', alice)).json()).enabled).toBe(false);

    for (const path of ['/calendar/not-a-token.ics', `/calendar/${'A'.repeat(43)}.ics`]) {
      const unknown = await feed(path);
      expect(unknown.statusCode).toBe(404);
      expect(ErrorReply.parse(unknown.json()).message).toBe('Calendar not found');
    }
    // A bearer token does not open a feed, and the calls that make one need it.
    expect((await t.app.inject({ method: 'GET', url: current, headers: bearer(alice) })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: '/api/users/me/calendar' })).statusCode).toBe(401);
  });
});
