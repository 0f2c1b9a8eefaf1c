import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NewAppPassword } from '../../../contract/app-passwords.ts';
import { Task } from '../../../contract/tasks.ts';
import { bearer, registerUser, type TestApp, testAppOn, testDialects } from '../test/test-app.ts';

type Account = { idToken: string; userId: string; basic: { authorization: string } };

const xml = new XMLParser({ removeNSPrefix: true, ignoreAttributes: false, isArray: (name) => ['response', 'propstat', 'href'].includes(name) });

const SYNC = (token: string) =>
  `<?xml version="1.0"?><d:sync-collection xmlns:d="DAV:"><d:sync-token>${token}</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>`;

const vtodo = (uid: string, fields: string) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//EN', 'BEGIN:VTODO', `UID:${uid}`, 'DTSTAMP:20261201T080000Z', fields, 'END:VTODO', 'END:VCALENDAR', ''].join('\r\n');

type Multistatus = { multistatus: { response: { href: string[]; status?: string; propstat?: { prop: Record<string, unknown> }[] }[]; 'sync-token'?: string } };

describe.each(testDialects)('CalDAV on %s', (dialect) => {
  let t: TestApp;
  let owner: Account;
  let other: Account;

  async function account(): Promise<Account> {
    const registered = await registerUser(t.app);
    const made = await t.app.inject({ method: 'POST', url: '/api/users/me/app-passwords', payload: { name: 'Phone' }, headers: bearer(registered.idToken) });
    const { password } = NewAppPassword.parse(made.json());
    return {
      idToken: registered.idToken,
      userId: registered.user.uid,
      basic: { authorization: `Basic ${Buffer.from(`${registered.user.email}:${password}`).toString('base64')}` },
    };
  }

  const dav = (who: Account, method: string, url: string, body?: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: method as 'GET', url, payload: body, headers: { ...who.basic, 'content-type': 'application/xml', ...headers } });

  const calendarUrl = (who: Account) => `/dav/calendars/${who.userId}/tasks/`;

  async function sync(who: Account, token: string) {
    const response = await dav(who, 'REPORT', calendarUrl(who), SYNC(token));
    expect(response.statusCode, response.body).toBe(207);
    const { multistatus } = xml.parse(response.body) as Multistatus;
    return { token: String(multistatus['sync-token']), responses: multistatus.response ?? [] };
  }

  beforeAll(async () => {
    t = await testAppOn(dialect, { env: { ALLOW_SIGNUP: 'true' } });
    owner = await account();
    other = await account();
  });
  afterAll(async () => t?.close());

  it('sends clients from /.well-known/caldav to the principal, its home and its one calendar of tasks', async () => {
    const wellKnown = await t.app.inject({ method: 'PROPFIND', url: '/.well-known/caldav' });
    expect(wellKnown.statusCode).toBe(301);
    expect(wellKnown.headers.location).toBe('/dav/');
    const root = await dav(owner, 'PROPFIND', '/dav/', '<d:propfind xmlns:d="DAV:"><d:prop><d:current-user-principal/></d:prop></d:propfind>', { depth: '0' });
    expect(root.statusCode).toBe(207);
    expect(root.body).toContain(`/dav/principals/${owner.userId}/`);
    const principal = await dav(owner, 'PROPFIND', `/dav/principals/${owner.userId}/`, '<propfind xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><prop><C:calendar-home-set/></prop></propfind>');
    expect(principal.body).toContain(`/dav/calendars/${owner.userId}/`);
    const home = await dav(owner, 'PROPFIND', `/dav/calendars/${owner.userId}/`, undefined, { depth: '1' });
    expect(home.body).toContain('<d:displayname>Tasks</d:displayname>');
    expect(home.body).toContain('<c:comp name="VTODO"/>');
    const options = await dav(owner, 'OPTIONS', calendarUrl(owner));
    expect(options.headers.dav).toContain('calendar-access');
  });

  it('answers another user\'s calendar, and a request without the app password, as nothing there', async () => {
    expect((await dav(other, 'PROPFIND', calendarUrl(owner))).statusCode).toBe(404);
    const anonymous = await t.app.inject({ method: 'PROPFIND', url: calendarUrl(owner) });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['www-authenticate']).toContain('Basic');
  });

  it('syncs tasks made on the web and by a client, with ETags that refuse a stale write', async () => {
    const initial = await sync(owner, '');
    const made = await t.app.inject({
      method: 'POST',
      url: '/schedule',
      payload: { name: 'Water the plants', first_schedule_time: '2026-12-01T09:00:00Z', schedule_type: 'w' },
      headers: bearer(owner.idToken),
    });
    const web = Task.parse(made.json());
    const afterWeb = await sync(owner, initial.token);
    expect(afterWeb.responses.map((response) => response.href[0])).toEqual([`${calendarUrl(owner)}${web.id}.ics`]);

    const got = await dav(owner, 'GET', `${calendarUrl(owner)}${web.id}.ics`);
    expect(got.body).toContain('RRULE:FREQ=WEEKLY');
    expect(got.body).toContain('SUMMARY:Water the plants');
    const etag = String(got.headers.etag);

    const put = await dav(owner, 'PUT', `${calendarUrl(owner)}phone-1.ics`, vtodo('phone-1', 'SUMMARY:Buy milk\r\nDUE:20261202T170000Z'), {
      'content-type': 'text/calendar',
      'if-none-match': '*',
    });
    expect(put.statusCode, put.body).toBe(201);
    const renamed = await dav(owner, 'PUT', `${calendarUrl(owner)}${web.id}.ics`, vtodo(web.id, 'SUMMARY:Water all the plants\r\nDUE:20261201T090000Z\r\nRRULE:FREQ=WEEKLY'), {
      'content-type': 'text/calendar',
      'if-match': etag,
    });
    expect(renamed.statusCode, renamed.body).toBe(204);
    const stale = await dav(owner, 'PUT', `${calendarUrl(owner)}${web.id}.ics`, vtodo(web.id, 'SUMMARY:Stale\r\nDUE:20261201T090000Z'), {
      'content-type': 'text/calendar',
      'if-match': etag,
    });
    expect(stale.statusCode).toBe(412);

    const afterClient = await sync(owner, afterWeb.token);
    expect(afterClient.responses.map((response) => response.href[0]).sort()).toEqual([`${calendarUrl(owner)}${web.id}.ics`, `${calendarUrl(owner)}phone-1.ics`].sort());
    const shown = await t.app.inject({ url: `/schedule/${web.id}`, headers: bearer(owner.idToken) });
    expect(Task.parse(shown.json()).name).toBe('Water all the plants');

    const completed = await dav(owner, 'PUT', `${calendarUrl(owner)}${web.id}.ics`, vtodo(web.id, 'SUMMARY:Water all the plants\r\nDUE:20261201T090000Z\r\nRRULE:FREQ=WEEKLY\r\nSTATUS:COMPLETED'), {
      'content-type': 'text/calendar',
    });
    expect(completed.statusCode).toBe(204);
    const next = Task.parse((await t.app.inject({ url: `/schedule/${web.id}`, headers: bearer(owner.idToken) })).json());
    expect(next).toMatchObject({ active: true, schedule_time: '2026-12-08T09:00:00.000Z' });

    const deleted = await dav(owner, 'DELETE', `${calendarUrl(owner)}phone-1.ics`);
    expect(deleted.statusCode).toBe(204);
    const afterDelete = await sync(owner, afterClient.token);
    const gone = afterDelete.responses.find((response) => response.href[0] === `${calendarUrl(owner)}phone-1.ics`);
    expect(gone?.status).toContain('404');
  });

  it('keeps a client\'s repeat rule as the task\'s, and sends a rule made on the web', async () => {
    const put = await dav(owner, 'PUT', `${calendarUrl(owner)}phone-rule.ics`, vtodo('phone-rule', 'SUMMARY:Gym\r\nDUE:20261203T070000Z\r\nRRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH'), {
      'content-type': 'text/calendar',
    });
    expect(put.statusCode, put.body).toBe(201);
    const page = (await t.app.inject({ url: '/schedule?pageSize=100', headers: bearer(owner.idToken) })).json() as { tasks: unknown[] };
    const gym = page.tasks.map((task) => Task.parse(task)).find((task) => task.name === 'Gym');
    expect(gym).toMatchObject({ schedule_type: 'c', rrule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH', schedule_time: '2026-12-03T07:00:00.000Z' });

    const made = await t.app.inject({
      method: 'POST',
      url: '/schedule',
      payload: { name: 'Bins', first_schedule_time: '2026-12-08T18:00:00Z', schedule_type: 'c', rrule: 'FREQ=MONTHLY;BYDAY=2TU' },
      headers: bearer(owner.idToken),
    });
    const bins = Task.parse(made.json());
    const got = await dav(owner, 'GET', `${calendarUrl(owner)}${bins.id}.ics`);
    expect(got.body).toMatch(/RRULE:(FREQ=MONTHLY;BYDAY=2TU|BYDAY=2TU;FREQ=MONTHLY)/);

    const hourly = await dav(owner, 'PUT', `${calendarUrl(owner)}phone-hourly.ics`, vtodo('phone-hourly', 'SUMMARY:Hourly\r\nDUE:20261203T070000Z\r\nRRULE:FREQ=HOURLY'), {
      'content-type': 'text/calendar',
    });
    expect(hourly.statusCode).toBe(400);
    expect((await dav(owner, 'GET', `${calendarUrl(owner)}phone-hourly.ics`)).statusCode).toBe(404);
  });

  it('answers a calendar-query for the tasks not completed, and another user\'s task as not there', async () => {
    const make = async (name: string) =>
      Task.parse((await t.app.inject({ method: 'POST', url: '/schedule', payload: { name, first_schedule_time: '2026-12-01T09:00:00Z', schedule_type: 'o' }, headers: bearer(owner.idToken) })).json());
    const open = await make('Still open');
    const done = await make('Done already');
    await t.app.inject({ method: 'PUT', url: `/schedule/${done.id}`, payload: { type: 'complete' }, headers: bearer(owner.idToken) });
    const query = await dav(
      owner,
      'REPORT',
      calendarUrl(owner),
      `<c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/></d:prop><c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO"><c:prop-filter name="COMPLETED"><c:is-not-defined/></c:prop-filter></c:comp-filter></c:comp-filter></c:filter></c:calendar-query>`,
      { depth: '1' },
    );
    const hrefs = (xml.parse(query.body) as Multistatus).multistatus.response.map((response) => response.href[0]);
    expect(hrefs).toContain(`${calendarUrl(owner)}${open.id}.ics`);
    expect(hrefs).not.toContain(`${calendarUrl(owner)}${done.id}.ics`);

    const theirs = `${calendarUrl(owner)}${open.id}.ics`;
    expect((await dav(other, 'GET', theirs)).statusCode).toBe(404);
    expect((await dav(other, 'DELETE', theirs)).statusCode).toBe(404);
    const put = await dav(other, 'PUT', theirs, vtodo(open.id, 'SUMMARY:Taken over'), { 'content-type': 'text/calendar' });
    expect(put.statusCode).toBe(404);
    expect(Task.parse((await t.app.inject({ url: `/schedule/${open.id}`, headers: bearer(owner.idToken) })).json()).name).toBe('Still open');
  });

  it('lets one of two writes made at once against the same ETag through, and refuses the other with 412', async () => {
    const made = Task.parse(
      (await t.app.inject({ method: 'POST', url: '/schedule', payload: { name: 'Contested', first_schedule_time: '2026-12-01T09:00:00Z', schedule_type: 'o' }, headers: bearer(owner.idToken) })).json(),
    );
    const url = `${calendarUrl(owner)}${made.id}.ics`;
    const etag = String((await dav(owner, 'GET', url)).headers.etag);
    const write = (name: string) =>
      dav(owner, 'PUT', url, vtodo(made.id, `SUMMARY:${name}\r\nDUE:20261201T090000Z`), { 'content-type': 'text/calendar', 'if-match': etag });
    const outcomes = await Promise.all([write('From the phone'), write('From the laptop')]);
    expect(outcomes.map((outcome) => outcome.statusCode).sort()).toEqual([204, 412]);
    const kept = Task.parse((await t.app.inject({ url: `/schedule/${made.id}`, headers: bearer(owner.idToken) })).json()).name;
    expect(['From the phone', 'From the laptop']).toContain(kept);
  });

  it('refuses bad iCalendar, a wrong content type and a sync token not its own, changing nothing', async () => {
    const before = await sync(owner, '');
    const bad = await dav(owner, 'PUT', `${calendarUrl(owner)}bad.ics`, 'BEGIN:VCALENDAR\r\nnot a line', { 'content-type': 'text/calendar' });
    expect(bad.statusCode).toBe(400);
    const json = await dav(owner, 'PUT', `${calendarUrl(owner)}bad.ics`, '{}', { 'content-type': 'application/json' });
    expect(json.statusCode).toBe(415);
    const invalid = await dav(owner, 'REPORT', calendarUrl(owner), SYNC('urn:elsewhere:1'));
    expect(invalid.statusCode).toBe(403);
    expect(invalid.body).toContain('valid-sync-token');
    expect((await sync(owner, before.token)).responses).toEqual([]);
  });
});
