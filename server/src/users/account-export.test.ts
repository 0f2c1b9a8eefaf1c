import { beforeAll, describe, expect, it } from 'vitest';
import { Task, TasksExport } from '../../../contract/tasks.ts';
import { bookmarksClient } from '../test/bookmarks-client.ts';
import { importBookmarks } from '../test/bookmark-import.ts';
import { bearer, registerUser, type TestApp, testAppOn, testDialects } from '../test/test-app.ts';

const DAY = 24 * 60 * 60 * 1000;
const iso = (ms: number) => new Date(ms).toISOString();

describe.each(testDialects)('exporting one’s data on %s', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await testAppOn(dialect, { env: { ALLOW_SIGNUP: 'true' } });
    return t.close;
  });

  const get = (token: string, url: string) => t.app.inject({ url, headers: bearer(token) });
  const createTask = async (token: string, body: object) => {
    const response = await t.app.inject({ method: 'POST', url: '/schedule/', headers: bearer(token), payload: body });
    expect(response.statusCode, response.body).toBe(200);
    return Task.parse(response.json());
  };
  /** Everything of a bookmark but its id, which another account gives it anew. */
  const allBookmarks = async (token: string) =>
    (await bookmarksClient(t.app, token).list({ pageSize: '100' })).items.map(({ id: _id, ...bookmark }) => bookmark).sort((a, b) => a.link.localeCompare(b.link));

  it('gives the bookmarks as a browser file to save, which imports again to the same bookmarks', async () => {
    const ann = await registerUser(t.app);
    const bookmarks = bookmarksClient(t.app, ann.idToken);
    await bookmarks.create({ title: 'Recipes & <tips>', link: 'https://example.org/recipes?a=1&b=2', tags: ['food', 'Kitchen, tools'], note: 'A note\non two lines' });
    t.clock.advance(60_000);
    await bookmarks.create({ title: 'Plain', link: 'https://example.org/plain' });
    await bookmarksClient(t.app, (await registerUser(t.app)).idToken).create({ title: 'Not Ann’s', link: 'https://example.org/other' });

    const exported = await get(ann.idToken, '/api/users/me/export/bookmarks');
    expect(exported.statusCode, exported.body).toBe(200);
    expect(exported.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(exported.headers['content-disposition']).toBe('attachment; filename="bookmarks.html"');
    expect(exported.body).toMatch(/^<!DOCTYPE NETSCAPE-Bookmark-file-1>/);
    expect(exported.body).not.toContain('example.org/other');

    const copy = await registerUser(t.app);
    const reply = await importBookmarks(t.app, bookmarksClient(t.app, copy.idToken), exported.body);
    expect(reply).toMatchObject({ imported: 2, skipped: 0, errors: [] });
    expect(await allBookmarks(copy.idToken)).toEqual(await allBookmarks(ann.idToken));
  });

  it('gives every task, done ones too, with its schedule and whole completion history, as JSON to save', async () => {
    const bob = await registerUser(t.app);
    const first = t.clock.now() + DAY;
    const weekly = await createTask(bob.idToken, {
      name: 'Weekly review',
      first_schedule_time: iso(first),
      schedule_type: 'w',
      schedule_end_time: iso(first + 7 * DAY),
      emails: [bob.user.email],
      notice_hours: [9],
      comment: 'Every Sunday',
    });
    const completedAt: number[] = [];
    for (let i = 0; i < 2; i++) {
      t.clock.advance(1000);
      completedAt.push(t.clock.now());
      const completed = await t.app.inject({ method: 'PUT', url: `/schedule/${weekly.id}`, headers: bearer(bob.idToken), payload: { type: 'complete' } });
      expect(completed.statusCode, completed.body).toBe(200);
    }
    const yearly = await createTask(bob.idToken, { name: 'Passport', first_schedule_time: iso(first + 30 * DAY), schedule_type: 'y' });
    await createTask((await registerUser(t.app)).idToken, { name: 'Not Bob’s', first_schedule_time: iso(first) });

    const exported = await get(bob.idToken, '/api/users/me/export/tasks');
    expect(exported.statusCode, exported.body).toBe(200);
    expect(exported.headers['content-type']).toMatch(/^application\/json/);
    expect(exported.headers['content-disposition']).toBe('attachment; filename="tasks.json"');
    const file = TasksExport.parse(JSON.parse(exported.body));
    expect(file.exported_at).toBe(iso(t.clock.now()));
    const weeklyNow = Task.parse((await get(bob.idToken, `/schedule/${weekly.id}`)).json());
    expect(weeklyNow.active).toBe(false);
    expect(file.tasks).toEqual([
      {
        ...weeklyNow,
        completions: [
          { occurrence: 0, due_time: iso(first), completed_at: iso(completedAt[0]!), checklist: [] },
          { occurrence: 1, due_time: iso(first + 7 * DAY), completed_at: iso(completedAt[1]!), checklist: [] },
        ],
      },
      { ...yearly, completions: [] },
    ]);
  });

  it('gives an account with nothing an empty file of each kind', async () => {
    const cy = await registerUser(t.app);
    const bookmarks = await get(cy.idToken, '/api/users/me/export/bookmarks');
    expect(bookmarks.statusCode).toBe(200);
    expect(bookmarks.body).not.toContain('<DT>');
    expect(TasksExport.parse((await get(cy.idToken, '/api/users/me/export/tasks')).json()).tasks).toEqual([]);
  });

  it('needs a signed-in user', async () => {
    for (const url of ['/api/users/me/export/bookmarks', '/api/users/me/export/tasks']) {
      expect((await t.app.inject({ url })).statusCode).toBe(401);
    }
  });
});
