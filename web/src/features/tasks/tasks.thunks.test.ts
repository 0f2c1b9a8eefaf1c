import { configureStore } from '@reduxjs/toolkit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { z } from 'zod';
import { MORE_RESULTS_AFTER_LIMIT, NO_MORE_RESULTS, type TaskPage } from '../../../../contract/tasks.ts';
import { ApiError } from '../../api/api-error.ts';
import { createApiStore } from '../../api/api-store.ts';
import type { HttpClient, RequestOptions } from '../../api/http-client.ts';
import { aTask } from './tasks.test-data.ts';
import { taskSlice as slice, statusChosen } from './tasks.slice.ts';
import { addTask, deleteCurrentTask, loadMoreTasks, loadTasks, openTask, saveTaskField } from './tasks.thunks.ts';

/** Answers the task calls as the API does over tasks t1…t7, five a page; `refuse` makes the next call fail. */
function fakeApi() {
  const calls: string[] = [];
  let refusal: ApiError | null = null;
  const json = async <S extends z.ZodType>(path: string, schema: S, options: RequestOptions = {}) => {
    calls.push(`${options.method ?? 'GET'} ${path}${options.headers?.pageCursor ? ` after ${options.headers.pageCursor}` : ''}`);
    if (refusal !== null) {
      const refused = refusal;
      refusal = null;
      throw refused;
    }
    const url = new URL(path, 'http://localhost');
    let reply: unknown;
    if (url.pathname === '/schedule') {
      const ids = options.headers?.pageCursor ? ['t6', 't7'] : ['t1', 't2', 't3', 't4', 't5'];
      const more = !options.headers?.pageCursor;
      reply = {
        tasks: ids.map((id) => aTask(id)),
        cursor: more ? 't5' : NO_MORE_RESULTS,
        queryInfo: { endCursor: ids.at(-1) ?? null, moreResults: more ? MORE_RESULTS_AFTER_LIMIT : NO_MORE_RESULTS },
      } satisfies TaskPage;
    } else if (options.method === 'POST') {
      const body = options.body as { name: string; schedule_type: string };
      reply = { ...aTask('new'), name: body.name, schedule_type: body.schedule_type };
    } else {
      reply = aTask(decodeURIComponent(url.pathname.split('/').at(-1)!));
    }
    return schema.parse(reply) as z.output<S>;
  };
  const unused = () => Promise.reject(new Error('not used'));
  const empty = async (path: string, options: RequestOptions = {}) => {
    calls.push(`${options.method ?? 'GET'} ${path}`);
    if (refusal !== null) {
      const refused = refusal;
      refusal = null;
      throw refused;
    }
  };
  const http: HttpClient = { json, empty, stream: unused };
  // The thunks run their calls through the cache's store, as in the app.
  const client = createApiStore(http).dispatch;
  return { client, calls, refuse: (status: number, message: string) => (refusal = new ApiError(status, message)) };
}

const newStore = () => configureStore({ reducer: { task: slice.reducer } });

afterEach(() => {
  vi.restoreAllMocks();
});

describe('task thunks', () => {
  it('loads the first page, then appends the next after the cursor, and stops at the end', async () => {
    const api = fakeApi();
    const store = newStore();
    await store.dispatch(loadTasks(api.client));
    await store.dispatch(loadMoreTasks(api.client));
    await store.dispatch(loadMoreTasks(api.client));
    expect(store.getState().task.tasks.map((task) => task.id)).toEqual(['t1', 't2', 't3', 't4', 't5', 't6', 't7']);
    expect(store.getState().task.pageCursor).toBe(NO_MORE_RESULTS);
    expect(api.calls).toEqual(['GET /schedule?pageSize=5', 'GET /schedule?pageSize=5 after t5']);
  });

  it('says a task is missing on a 404, and reports other failures as the operation error', async () => {
    const api = fakeApi();
    const store = newStore();
    expect(await store.dispatch(openTask(api.client, 't1'))).toBe(false);
    expect(store.getState().task.curTask?.id).toBe('t1');
    api.refuse(404, 'Task not found');
    expect(await store.dispatch(openTask(api.client, 'gone'))).toBe(true);
    expect(store.getState().task.curTask).toBeNull();
    expect(store.getState().task.operationError).toBeNull();
    api.refuse(503, 'The database is busy');
    expect(await store.dispatch(openTask(api.client, 't2'))).toBe(false);
    expect(store.getState().task.operationError).toBe('The database is busy');
  });

  it('changes nothing once its request is cancelled', async () => {
    const api = fakeApi();
    const store = newStore();
    const cancelled = AbortSignal.abort();
    await store.dispatch(loadTasks(api.client, cancelled));
    api.refuse(404, 'Task not found');
    expect(await store.dispatch(openTask(api.client, 'gone', cancelled))).toBe(false);
    expect(store.getState().task).toMatchObject({ tasks: [], curTask: null, operationError: null });
  });

  it('keeps a refused field’s editor open with the error shown', async () => {
    const api = fakeApi();
    const store = newStore();
    api.refuse(400, 'value.2: must be whole hours 0-23');
    expect(await store.dispatch(saveTaskField(api.client, 't1', 'notice_hours', [9, 30]))).toBe(false);
    expect(store.getState().task.operationError).toBe('value.2: must be whole hours 0-23');
    expect(await store.dispatch(saveTaskField(api.client, 't1', 'name', 'Renamed'))).toBe(true);
    expect(store.getState().task.operationError).toBeNull();
  });

  it('creates a daily task unless another kind is chosen, and logs and rethrows a failed create', async () => {
    const api = fakeApi();
    const store = newStore();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const created = await store.dispatch(addTask(api.client, { name: 'Water', first_schedule_time: '2030-03-06T09:00:00-05:00' }));
    expect(created.name).toBe('Water');
    expect(store.getState().task.curTask?.id).toBe('new');
    // Daily, as the specification's create payload, unless another kind is chosen.
    expect(created.schedule_type).toBe('d');
    expect((await store.dispatch(addTask(api.client, { name: 'Once', first_schedule_time: '2030-03-06T09:00:00-05:00', schedule_type: 'o' }))).schedule_type).toBe('o');
    api.refuse(400, 'name is too long');
    await expect(store.dispatch(addTask(api.client, { name: 'x', first_schedule_time: '2030-03-06T09:00:00-05:00' }))).rejects.toThrow('name is too long');
    expect(logged).toHaveBeenCalledOnce();
  });

  it('asks for the chosen status, keeping the plain call for active tasks', async () => {
    const api = fakeApi();
    const store = newStore();
    store.dispatch(statusChosen('done'));
    await store.dispatch(loadTasks(api.client));
    await store.dispatch(loadMoreTasks(api.client));
    store.dispatch(statusChosen('active'));
    await store.dispatch(loadTasks(api.client));
    expect(api.calls).toEqual(['GET /schedule?pageSize=5&status=done', 'GET /schedule?pageSize=5&status=done after t5', 'GET /schedule?pageSize=5']);
  });

  it('deletes the task, which leaves the list; a refused delete is the operation error', async () => {
    const api = fakeApi();
    const store = newStore();
    await store.dispatch(loadTasks(api.client));
    await store.dispatch(openTask(api.client, 't2'));
    expect(await store.dispatch(deleteCurrentTask(api.client, 't2'))).toBe(true);
    expect(store.getState().task.tasks.map((task) => task.id)).toEqual(['t1', 't3', 't4', 't5']);
    expect(store.getState().task.curTask).toBeNull();
    api.refuse(404, 'Task not found');
    expect(await store.dispatch(deleteCurrentTask(api.client, 't3'))).toBe(false);
    expect(store.getState().task.operationError).toBe('Task not found');
    expect(api.calls.filter((call) => call.startsWith('DELETE'))).toEqual(['DELETE /schedule/t2', 'DELETE /schedule/t3']);
  });
});
