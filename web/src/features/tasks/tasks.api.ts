import type { CreateTaskBody, TaskField } from '../../../../contract/task-requests.ts';
import { type ScheduleType, Task, TaskCompletion, TaskPage, type TaskStatus } from '../../../../contract/tasks.ts';
import type { HttpClient } from '../../api/http-client.ts';

export function fetchTaskPage(
  client: HttpClient,
  pageSize: number,
  status: TaskStatus,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<TaskPage> {
  const headers = cursor === null ? undefined : { pageCursor: cursor };
  // The spec's own call while the list shows active tasks; the status only when another is chosen.
  const query = status === 'active' ? `pageSize=${pageSize}` : `pageSize=${pageSize}&status=${status}`;
  return client.json(`/schedule?${query}`, TaskPage, { signal, headers });
}

export function fetchTask(client: HttpClient, id: string, signal?: AbortSignal): Promise<Task> {
  return client.json(`/schedule/${encodeURIComponent(id)}`, Task, { signal });
}

/** The values as the API takes them: times as ISO strings. */
export type TaskFieldValue = string | string[] | number[] | boolean | ScheduleType | null;

export function updateTaskField(client: HttpClient, id: string, key: TaskField, value: TaskFieldValue): Promise<Task> {
  return client.json(`/schedule/${encodeURIComponent(id)}`, Task, { method: 'PUT', body: { type: 'update', key, value } });
}

export function deleteTask(client: HttpClient, id: string): Promise<void> {
  return client.empty(`/schedule/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function fetchCompletions(client: HttpClient, id: string, signal?: AbortSignal): Promise<TaskCompletion[]> {
  return client.json(`/schedule/${encodeURIComponent(id)}/completions`, TaskCompletion.array(), { signal });
}

export function completeTask(client: HttpClient, id: string): Promise<Task> {
  return client.json(`/schedule/${encodeURIComponent(id)}`, Task, { method: 'PUT', body: { type: 'complete' } });
}

/** The create payload of spec §3: name, first time, and schedule type d. */
export function createTask(
  client: HttpClient,
  body: Pick<CreateTaskBody, 'name'> & { first_schedule_time: string; schedule_type: 'd' },
): Promise<Task> {
  return client.json('/schedule/', Task, { method: 'POST', body });
}
