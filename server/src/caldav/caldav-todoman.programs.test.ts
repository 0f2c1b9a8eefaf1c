import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Task, TaskPage } from '../../../contract/tasks.ts';
import { davAccount, davClients } from '../test/dav-clients.ts';
import { bearer, type TestApp, testAppOn, testDialects } from '../test/test-app.ts';

// vdirsyncer and todoman from Debian against the server on a real port: a task made, edited,
// completed and deleted on either side reaches the other at the next `vdirsyncer sync`.
describe.each(testDialects)('vdirsyncer and todoman on %s', (dialect) => {
  let t: TestApp;
  let account: Awaited<ReturnType<typeof davAccount>>;
  let clients: ReturnType<typeof davClients>;

  const api = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
    const response = await t.app.inject({ method, url, payload, headers: bearer(account.idToken) });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response;
  };
  const webTask = async (name: string) => TaskPage.parse((await api('GET', '/schedule?status=all')).json()).tasks.filter((task) => task.name === name);
  const todoNamed = async (summary: string) => (await clients.todos()).find((todo) => todo.summary === summary);

  beforeAll(async () => {
    t = await testAppOn(dialect, { env: { ALLOW_SIGNUP: 'true' } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    account = await davAccount(t.app);
    clients = davClients(`http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`, account);
    await clients.discover();
    await clients.sync();
  });
  afterAll(async () => {
    clients?.remove();
    await t?.close();
  });

  it('brings a task made, edited, completed and deleted in todoman to Organiser', async () => {
    // vdirsyncer refuses to sync a calendar emptied on one side: this task stays throughout.
    await clients.todoman('new', '-l', 'tasks', 'Stays');
    await clients.todoman('new', '-l', 'tasks', '--due', '2026-12-02 17:00', 'Buy milk');
    await clients.sync();
    expect(await webTask('Buy milk')).toMatchObject([{ schedule_time: '2026-12-02T17:00:00.000Z', schedule_type: 'o', active: true }]);
    expect(await webTask('Stays')).toHaveLength(1);

    const made = await todoNamed('Buy milk');
    await clients.todoman('edit', String(made!.id), '--due', '2026-12-03 18:30');
    await clients.sync();
    expect(await webTask('Buy milk')).toMatchObject([{ schedule_time: '2026-12-03T18:30:00.000Z' }]);

    await clients.todoman('done', String(made!.id));
    await clients.sync();
    expect(await webTask('Buy milk')).toMatchObject([{ active: false }]);

    await clients.todoman('delete', '--yes', String(made!.id));
    await clients.sync();
    expect(await webTask('Buy milk')).toEqual([]);
  });

  it('brings a task made, edited, completed and deleted in Organiser to todoman', async () => {
    const made = Task.parse(
      (await api('POST', '/schedule', { name: 'Water the plants', first_schedule_time: '2026-12-01T09:00:00Z', schedule_type: 'w' })).json(),
    );
    await clients.sync();
    expect(await todoNamed('Water the plants')).toMatchObject({ due: Date.parse('2026-12-01T09:00:00Z') / 1000, completed: false });

    await api('PUT', `/schedule/${made.id}`, { type: 'update', key: 'name', value: 'Water every plant' });
    await clients.sync();
    expect(await todoNamed('Water the plants')).toBeUndefined();
    expect(await todoNamed('Water every plant')).toBeDefined();

    // A repeating task's Complete moves it to its next occurrence, which todoman then shows due.
    await api('PUT', `/schedule/${made.id}`, { type: 'complete' });
    await clients.sync();
    expect(await todoNamed('Water every plant')).toMatchObject({ due: Date.parse('2026-12-08T09:00:00Z') / 1000, completed: false });

    const once = Task.parse((await api('POST', '/schedule', { name: 'Renew passport', first_schedule_time: '2026-12-05T10:00:00Z', schedule_type: 'o' })).json());
    await api('PUT', `/schedule/${once.id}`, { type: 'complete' });
    await clients.sync();
    expect(await todoNamed('Renew passport')).toMatchObject({ completed: true });

    await api('DELETE', `/schedule/${made.id}`);
    await clients.sync();
    expect(await todoNamed('Water every plant')).toBeUndefined();
  });
});
