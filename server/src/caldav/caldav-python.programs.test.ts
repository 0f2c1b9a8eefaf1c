import { execFile } from 'node:child_process';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskList } from '../../../contract/task-lists.ts';
import { Task } from '../../../contract/tasks.ts';
import { davAccount, DEBIAN_PYTHON } from '../test/dav-clients.ts';
import { bearer, type TestApp, testAppOn, testDialects } from '../test/test-app.ts';

const run = promisify(execFile);
const SCRIPT = path.join(import.meta.dirname, 'fixtures', 'python-caldav-client.py');

type Synced = { token: string; objects: { url: string; deleted: boolean }[] };

// python3-caldav from Debian against the server on a real port: discovery from the bare address,
// sync-collection from nothing and then by token, and a write with a stale ETag refused.
describe.each(testDialects)('python3-caldav on %s', (dialect) => {
  let t: TestApp;
  let account: Awaited<ReturnType<typeof davAccount>>;
  let baseUrl: string;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'organiser-python-caldav-'));

  async function python<T>(step: string, url: string, ...rest: string[]): Promise<T> {
    const { stdout } = await run(DEBIAN_PYTHON, [SCRIPT, step, url, account.email, account.password, ...rest], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: work, LANG: 'C.UTF-8' },
      timeout: 30_000,
    });
    return JSON.parse(stdout) as T;
  }

  const api = async (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
    const response = await t.app.inject({ method, url, payload, headers: bearer(account.idToken) });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response;
  };
  const newTask = async (name: string) =>
    Task.parse((await api('POST', '/schedule', { name, first_schedule_time: '2026-12-01T09:00:00Z', schedule_type: 'd' })).json());

  beforeAll(async () => {
    t = await testAppOn(dialect, { env: { ALLOW_SIGNUP: 'true' } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    account = await davAccount(t.app);
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('finds the principal and its calendar of tasks, syncs from nothing and then by token, and refuses a stale ETag', async () => {
    const found = await python<{ principal: string; calendars: { url: string; name: string }[] }>('discover', `${baseUrl}/`);
    expect(found.principal).toBe(`${baseUrl}/dav/principals/${account.userId}/`);
    expect(found.calendars).toEqual([{ url: `${baseUrl}/dav/calendars/${account.userId}/tasks/`, name: 'Tasks' }]);
    const calendar = found.calendars[0]!.url;

    const kept = await newTask('Feed the cat');
    const dropped = await newTask('Call the plumber');
    const initial = await python<Synced>('sync', calendar);
    expect(initial.objects.map((object) => object.url).sort()).toEqual([`${calendar}${kept.id}.ics`, `${calendar}${dropped.id}.ics`].sort());

    const read = await python<{ etag: string; text: string }>('get', `${calendar}${kept.id}.ics`);
    await api('PUT', `/schedule/${kept.id}`, { type: 'update', key: 'name', value: 'Feed both cats' });
    await api('DELETE', `/schedule/${dropped.id}`);
    const added = await newTask('Buy bread');
    const incremental = await python<Synced>('sync', calendar, initial.token);
    expect(incremental.objects.sort((a, b) => a.url.localeCompare(b.url))).toEqual(
      [
        { url: `${calendar}${kept.id}.ics`, deleted: false },
        { url: `${calendar}${dropped.id}.ics`, deleted: true },
        { url: `${calendar}${added.id}.ics`, deleted: false },
      ].sort((a, b) => a.url.localeCompare(b.url)),
    );
    expect((await python<Synced>('sync', calendar, incremental.token)).objects).toEqual([]);

    const body = path.join(work, 'stale.ics');
    fs.writeFileSync(body, read.text.replace('SUMMARY:Feed the cat', 'SUMMARY:Feed the dog'));
    expect(await python<{ status: number }>('put', `${calendar}${kept.id}.ics`, read.etag, body)).toEqual({ status: 412 });
    const shown = Task.parse((await t.app.inject({ url: `/schedule/${kept.id}`, headers: bearer(account.idToken) })).json());
    expect(shown.name).toBe('Feed both cats');
  });

  it('finds a household list as a calendar of its own, holding the list\'s tasks', async () => {
    const list = TaskList.parse((await api('POST', '/api/task-lists', { name: 'Flat chores' })).json());
    const listed = Task.parse((await api('POST', '/schedule', { name: 'Descale the kettle', first_schedule_time: '2026-12-01T09:00:00Z', list_id: list.id })).json());
    const found = await python<{ calendars: { url: string; name: string }[] }>('discover', `${baseUrl}/`);
    const calendar = `${baseUrl}/dav/calendars/${account.userId}/list-${list.id}/`;
    expect(found.calendars).toEqual([
      { url: `${baseUrl}/dav/calendars/${account.userId}/tasks/`, name: 'Tasks' },
      { url: calendar, name: 'Flat chores' },
    ]);
    expect((await python<Synced>('sync', calendar)).objects).toEqual([{ url: `${calendar}${listed.id}.ics`, deleted: false }]);
  });
});
