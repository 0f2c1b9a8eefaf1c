import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskList } from '../../../contract/task-lists.ts';
import { Task } from '../../../contract/tasks.ts';
import { davAccount } from '../test/dav-clients.ts';
import { bearer, type TestApp, testAppOn, testDialects } from '../test/test-app.ts';

type Account = Awaited<ReturnType<typeof davAccount>>;
type Multistatus = { multistatus: { response?: { href: string[]; status?: string }[]; 'sync-token'?: string } };

const xml = new XMLParser({ removeNSPrefix: true, ignoreAttributes: false, isArray: (name) => ['response', 'propstat', 'href'].includes(name) });

const SYNC = (token: string) =>
  `<?xml version="1.0"?><d:sync-collection xmlns:d="DAV:"><d:sync-token>${token}</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>`;

const vtodo = (uid: string, fields: string) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//EN', 'BEGIN:VTODO', `UID:${uid}`, 'DTSTAMP:20261201T080000Z', fields, 'END:VTODO', 'END:VCALENDAR', ''].join('\r\n');

const ICS = { 'content-type': 'text/calendar' };

describe.each(testDialects)('CalDAV calendars of household lists, and checklist items, on %s', (dialect) => {
  let t: TestApp;
  let olive: Account;
  let sam: Account;
  let stan: Account;

  const basic = (who: Account) => ({ authorization: `Basic ${Buffer.from(`${who.email}:${who.password}`).toString('base64')}` });
  const dav = (who: Account, method: string, url: string, body?: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: method as 'GET', url, payload: body, headers: { ...basic(who), 'content-type': 'application/xml', ...headers } });
  const web = async (who: Account, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
    const response = await t.app.inject({ method, url, headers: bearer(who.idToken), ...(payload ? { payload } : {}) });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json() as unknown;
  };
  const ownUrl = (who: Account) => `/dav/calendars/${who.userId}/tasks/`;
  const listUrl = (who: Account, listId: string) => `/dav/calendars/${who.userId}/list-${listId}/`;

  async function sync(who: Account, url: string, token: string) {
    const response = await dav(who, 'REPORT', url, SYNC(token));
    expect(response.statusCode, response.body).toBe(207);
    const { multistatus } = xml.parse(response.body) as Multistatus;
    return { token: String(multistatus['sync-token']), responses: multistatus.response ?? [] };
  }
  const hrefs = (responses: { href: string[] }[]) => responses.map((response) => response.href[0]);

  beforeAll(async () => {
    t = await testAppOn(dialect, { env: { ALLOW_SIGNUP: 'true' } });
    [olive, sam, stan] = [await davAccount(t.app), await davAccount(t.app), await davAccount(t.app)];
  });
  afterAll(async () => t?.close());

  it('shows a shared list as a calendar to both people, syncs one\'s changes to the other, and is nothing to anyone else', async () => {
    const list = TaskList.parse(await web(olive, 'POST', '/api/task-lists', { name: 'Flat chores' }));
    await web(olive, 'PUT', `/api/task-lists/${list.id}/members`, { emails: [sam.email] });
    for (const who of [olive, sam]) {
      const home = await dav(who, 'PROPFIND', `/dav/calendars/${who.userId}/`, undefined, { depth: '1' });
      expect(home.body).toContain(`<d:href>${listUrl(who, list.id)}</d:href>`);
      expect(home.body).toContain('<d:displayname>Flat chores</d:displayname>');
      expect(home.body).toContain(`<d:href>${ownUrl(who)}</d:href>`);
    }
    const samStart = await sync(sam, listUrl(sam, list.id), '');
    const oliveOwnStart = await sync(olive, ownUrl(olive), '');

    const made = await dav(olive, 'PUT', `${listUrl(olive, list.id)}bins.ics`, vtodo('bins', 'SUMMARY:Bins out\r\nDUE:20261202T180000Z'), ICS);
    expect(made.statusCode, made.body).toBe(201);
    const page = (await web(sam, 'GET', `/schedule?pageSize=100&list=${list.id}`)) as { tasks: unknown[] };
    const bins = page.tasks.map((task) => Task.parse(task)).find((task) => task.name === 'Bins out');
    expect(bins).toMatchObject({ list_id: list.id, active: true });
    // In exactly one calendar: the list's, not Olive's own.
    expect((await sync(olive, ownUrl(olive), oliveOwnStart.token)).responses).toEqual([]);

    const samSees = await sync(sam, listUrl(sam, list.id), samStart.token);
    expect(hrefs(samSees.responses)).toEqual([`${listUrl(sam, list.id)}bins.ics`]);
    const got = await dav(sam, 'GET', `${listUrl(sam, list.id)}bins.ics`);
    expect(got.body).toContain('SUMMARY:Bins out');
    const done = await dav(sam, 'PUT', `${listUrl(sam, list.id)}bins.ics`, vtodo('bins', 'SUMMARY:Bins out\r\nDUE:20261202T180000Z\r\nSTATUS:COMPLETED'), {
      ...ICS,
      'if-match': String(got.headers.etag),
    });
    expect(done.statusCode, done.body).toBe(204);
    expect(Task.parse(await web(olive, 'GET', `/schedule/${bins!.id}`))).toMatchObject({ active: false });
    const oliveSees = await sync(olive, listUrl(olive, list.id), samSees.token);
    expect(hrefs(oliveSees.responses)).toEqual([`${listUrl(olive, list.id)}bins.ics`]);

    for (const url of [listUrl(stan, list.id), `${listUrl(stan, list.id)}bins.ics`, listUrl(sam, list.id)]) {
      expect((await dav(stan, 'PROPFIND', url)).statusCode, url).toBe(404);
    }
    expect((await dav(stan, 'PUT', `${listUrl(stan, list.id)}sneak.ics`, vtodo('sneak', 'SUMMARY:Sneak in'), ICS)).statusCode).toBe(404);
    const stanHome = await dav(stan, 'PROPFIND', `/dav/calendars/${stan.userId}/`, undefined, { depth: '1' });
    expect(stanHome.body).not.toContain('Flat chores');
  });

  it('moves a task from one calendar to the other when it changes list, and drops a removed member\'s calendar at once', async () => {
    const list = TaskList.parse(await web(olive, 'POST', '/api/task-lists', { name: 'Garden' }));
    await web(olive, 'PUT', `/api/task-lists/${list.id}/members`, { emails: [sam.email] });
    const own = await sync(olive, ownUrl(olive), '');
    const listed = await sync(sam, listUrl(sam, list.id), '');
    const mow = Task.parse(await web(olive, 'POST', '/schedule', { name: 'Mow', first_schedule_time: '2026-12-05T10:00:00Z', schedule_type: 'o' }));
    const ownAfterMade = await sync(olive, ownUrl(olive), own.token);
    expect(hrefs(ownAfterMade.responses)).toEqual([`${ownUrl(olive)}${mow.id}.ics`]);

    await web(olive, 'PUT', `/schedule/${mow.id}`, { type: 'update', key: 'list_id', value: list.id });
    const left = (await sync(olive, ownUrl(olive), ownAfterMade.token)).responses;
    expect(left.map((response) => [response.href[0], response.status])).toEqual([[`${ownUrl(olive)}${mow.id}.ics`, 'HTTP/1.1 404 Not Found']]);
    expect(hrefs((await sync(sam, listUrl(sam, list.id), listed.token)).responses)).toEqual([`${listUrl(sam, list.id)}${mow.id}.ics`]);

    await web(olive, 'PUT', `/api/task-lists/${list.id}/members`, { emails: [] });
    expect((await dav(sam, 'PROPFIND', listUrl(sam, list.id))).statusCode).toBe(404);
    expect((await dav(sam, 'GET', `${listUrl(sam, list.id)}${mow.id}.ics`)).statusCode).toBe(404);
    expect((await dav(sam, 'DELETE', `${listUrl(sam, list.id)}${mow.id}.ics`)).statusCode).toBe(404);
    expect(Task.parse(await web(olive, 'GET', `/schedule/${mow.id}`)).name).toBe('Mow');
  });

  it('shows checklist items as VTODOs related to their task, ticked both ways, and removed by a client\'s DELETE', async () => {
    const task = Task.parse(await web(olive, 'POST', '/schedule', { name: 'Pack', first_schedule_time: '2026-12-05T10:00:00Z', schedule_type: 'w' }));
    const start = await sync(olive, ownUrl(olive), '');
    const passport = Task.parse(await web(olive, 'POST', `/schedule/${task.id}/checklist`, { text: 'Passport' })).checklist[0]!;
    const towel = Task.parse(await web(olive, 'POST', `/schedule/${task.id}/checklist`, { text: 'Towel' })).checklist[1]!;
    const itemUrl = (itemId: string) => `${ownUrl(olive)}${task.id}-item-${itemId}.ics`;
    const added = await sync(olive, ownUrl(olive), start.token);
    expect(hrefs(added.responses).sort()).toEqual([`${ownUrl(olive)}${task.id}.ics`, itemUrl(passport.id), itemUrl(towel.id)].sort());

    const got = await dav(olive, 'GET', itemUrl(passport.id));
    expect(got.statusCode).toBe(200);
    const unfolded = got.body.replaceAll('\r\n ', '');
    expect(unfolded).toContain(`UID:${task.id}-item-${passport.id}`);
    expect(unfolded).toContain(`RELATED-TO;RELTYPE=PARENT:${task.id}`);
    expect(unfolded).toContain('SUMMARY:Passport');
    expect(unfolded).toContain('STATUS:NEEDS-ACTION');

    const ticked = await dav(olive, 'PUT', itemUrl(passport.id), vtodo(`${task.id}-item-${passport.id}`, `SUMMARY:Passport\r\nRELATED-TO;RELTYPE=PARENT:${task.id}\r\nSTATUS:COMPLETED`), {
      ...ICS,
      'if-match': String(got.headers.etag),
    });
    expect(ticked.statusCode, ticked.body).toBe(204);
    expect(ticked.headers.etag).toBeDefined();
    const onWeb = Task.parse(await web(olive, 'GET', `/schedule/${task.id}`));
    expect(onWeb.checklist).toEqual([{ ...passport, done: true }, towel]);
    expect(onWeb.active).toBe(true);

    await web(olive, 'PUT', `/schedule/${task.id}/checklist/${towel.id}`, { done: true });
    const afterWebTick = await sync(olive, ownUrl(olive), added.token);
    expect(hrefs(afterWebTick.responses)).toContain(itemUrl(towel.id));
    expect((await dav(olive, 'GET', itemUrl(towel.id))).body).toContain('STATUS:COMPLETED');

    const stale = await dav(olive, 'PUT', itemUrl(towel.id), vtodo(`${task.id}-item-${towel.id}`, 'SUMMARY:Stale'), { ...ICS, 'if-match': String(got.headers.etag) });
    expect(stale.statusCode).toBe(412);
    const made = await dav(olive, 'PUT', `${ownUrl(olive)}sunscreen.ics`, vtodo('sunscreen', `SUMMARY:Sunscreen\r\nRELATED-TO:${task.id}`), ICS);
    expect(made.statusCode).toBe(403);
    expect((await dav(sam, 'DELETE', `/dav/calendars/${sam.userId}/tasks/${task.id}-item-${towel.id}.ics`)).statusCode).toBe(404);

    expect((await dav(olive, 'DELETE', itemUrl(towel.id))).statusCode).toBe(204);
    expect(Task.parse(await web(olive, 'GET', `/schedule/${task.id}`)).checklist.map((item) => item.text)).toEqual(['Passport']);
    const afterDelete = await sync(olive, ownUrl(olive), afterWebTick.token);
    expect(afterDelete.responses.find((response) => response.href[0] === itemUrl(towel.id))?.status).toContain('404');
    expect((await dav(olive, 'GET', itemUrl(towel.id))).statusCode).toBe(404);

    await t.app.inject({ method: 'DELETE', url: `/schedule/${task.id}`, headers: bearer(olive.idToken) });
    const afterTaskGone = await sync(olive, ownUrl(olive), afterDelete.token);
    expect(afterTaskGone.responses.filter((response) => response.status?.includes('404')).map((response) => response.href[0]).sort()).toEqual(
      [`${ownUrl(olive)}${task.id}.ics`, itemUrl(passport.id)].sort(),
    );
  });
});
