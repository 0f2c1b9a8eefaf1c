import type { ChecklistChangeBody, CreateTaskBody, TaskField } from '../../../../contract/task-requests.ts';
import { DonePage, NO_MORE_RESULTS, type RepeatFrom, type ScheduleType, Task, TaskCompletion, TaskPage, type TaskStatus } from '../../../../contract/tasks.ts';
import { api, emptyCall, jsonCall } from '../../api/api.ts';

export interface TaskPageArgs {
  pageSize: number;
  status: TaskStatus;
  /** One household list's id, OWN_TASKS, or null for every task. */
  list: string | null;
  cursor: string | null;
}

/** The values as the API takes them: times as ISO strings. */
export type TaskFieldValue = string | string[] | number[] | boolean | ScheduleType | null;

const taskPath = (id: string) => `/schedule/${encodeURIComponent(id)}`;

export const tasksApi = api.injectEndpoints({
  endpoints: (build) => ({
    taskPage: build.query<TaskPage, TaskPageArgs>({
      query: ({ pageSize, status, list, cursor }) => {
        // The plain call while the list shows active tasks; the status only when another is chosen.
        const plain = status === 'active' ? `pageSize=${pageSize}` : `pageSize=${pageSize}&status=${status}`;
        const query = list === null ? plain : `${plain}&list=${encodeURIComponent(list)}`;
        return jsonCall(`/schedule?${query}`, TaskPage, cursor === null ? {} : { headers: { pageCursor: cursor } });
      },
      keepUnusedDataFor: 0,
    }),
    task: build.query<Task, string>({
      query: (id) => jsonCall(taskPath(id), Task),
      keepUnusedDataFor: 0,
    }),
    updateTaskField: build.mutation<Task, { id: string; key: TaskField; value: TaskFieldValue }>({
      query: ({ id, key, value }) => jsonCall(taskPath(id), Task, { method: 'PUT', body: { type: 'update', key, value } }),
    }),
    completeTask: build.mutation<Task, string>({
      query: (id) => jsonCall(taskPath(id), Task, { method: 'PUT', body: { type: 'complete' } }),
    }),
    deleteTask: build.mutation<null, string>({
      query: (id) => emptyCall(taskPath(id), { method: 'DELETE' }),
    }),
    /**
     * The create payload of docs/behaviour/tasks-and-notices.md: name, first time, and the schedule
     * type chosen (d unless another is), or a repeat rule and what it counts from; the list it is in.
     */
    createTask: build.mutation<
      Task,
      Pick<CreateTaskBody, 'name'> & { first_schedule_time: string; schedule_type: ScheduleType; rrule?: string; repeat_from?: RepeatFrom; list_id?: string }
    >({
      query: (body) => jsonCall('/schedule/', Task, { method: 'POST', body }),
    }),
    addChecklistItem: build.mutation<Task, { id: string; text: string }>({
      query: ({ id, text }) => jsonCall(`${taskPath(id)}/checklist`, Task, { method: 'POST', body: { text } }),
    }),
    changeChecklistItem: build.mutation<Task, { id: string; itemId: string; change: ChecklistChangeBody }>({
      query: ({ id, itemId, change }) => jsonCall(`${taskPath(id)}/checklist/${encodeURIComponent(itemId)}`, Task, { method: 'PUT', body: change }),
    }),
    removeChecklistItem: build.mutation<Task, { id: string; itemId: string }>({
      query: ({ id, itemId }) => jsonCall(`${taskPath(id)}/checklist/${encodeURIComponent(itemId)}`, Task, { method: 'DELETE' }),
    }),
    /** Each Complete of the task; `version` (the task's update time) names the history after each change. */
    completions: build.query<TaskCompletion[], { id: string; version: string }>({
      query: ({ id }) => jsonCall(`/schedule/${encodeURIComponent(id)}/completions`, TaskCompletion.array()),
    }),
    /** The Done list, a page of `pageSize` at a time: every occurrence completed, the latest first. */
    done: build.infiniteQuery<DonePage, number, string | null>({
      infiniteQueryOptions: {
        initialPageParam: null,
        getNextPageParam: (last) => (last.cursor === NO_MORE_RESULTS ? undefined : last.cursor),
      },
      query: ({ queryArg: pageSize, pageParam }) =>
        jsonCall(`/schedule/completions?pageSize=${pageSize}`, DonePage, pageParam === null ? {} : { headers: { pageCursor: pageParam } }),
    }),
  }),
});

export const { useCompletionsQuery, useDoneInfiniteQuery } = tasksApi;
