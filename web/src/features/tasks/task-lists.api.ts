import { TaskList, TaskLists } from '../../../../contract/task-lists.ts';
import { api, emptyCall, jsonCall } from '../../api/api.ts';

const listPath = (id: string) => `/api/task-lists/${encodeURIComponent(id)}`;

/** Household lists (docs/behaviour/task-lists.md); every change makes the lists stale. */
export const taskListsApi = api.injectEndpoints({
  endpoints: (build) => ({
    taskLists: build.query<TaskList[], void>({
      query: () => jsonCall('/api/task-lists', TaskLists),
      providesTags: ['TaskLists'],
    }),
    createTaskList: build.mutation<TaskList, string>({
      query: (name) => jsonCall('/api/task-lists', TaskList, { method: 'POST', body: { name } }),
      invalidatesTags: ['TaskLists'],
    }),
    deleteTaskList: build.mutation<null, string>({
      query: (id) => emptyCall(listPath(id), { method: 'DELETE' }),
      invalidatesTags: ['TaskLists'],
    }),
    /** Shares the list with the accounts of these addresses, replacing its members. */
    shareTaskList: build.mutation<TaskList, { id: string; emails: string[] }>({
      query: ({ id, emails }) => jsonCall(`${listPath(id)}/members`, TaskList, { method: 'PUT', body: { emails } }),
      invalidatesTags: ['TaskLists'],
    }),
  }),
});

export const { useTaskListsQuery, useCreateTaskListMutation, useDeleteTaskListMutation, useShareTaskListMutation } = taskListsApi;
