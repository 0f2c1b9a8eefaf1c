import type { ThunkAction, UnknownAction } from '@reduxjs/toolkit';
import type { CreateTaskBody, TaskField } from '../../../../contract/task-requests.ts';
import { NO_MORE_RESULTS, type Task } from '../../../../contract/tasks.ts';
import { ApiError, errorMessage } from '../../api/api-error.ts';
import type { HttpClient } from '../../api/http-client.ts';
import { completeTask, createTask, deleteTask, fetchTask, fetchTaskPage, type TaskFieldValue, updateTaskField } from './tasks.api.ts';
import {
  errorReported,
  taskCreated,
  taskDeleted,
  taskRemoved,
  type TasksRootState,
  tasksAppended,
  tasksReceived,
  taskUpdated,
} from './tasks.slice.ts';

export type TasksThunk<T = void> = ThunkAction<Promise<T>, TasksRootState, unknown, UnknownAction>;

/** The first page replaces the list (spec §4); a failed load is only logged (spec §8). */
export function loadTasks(client: HttpClient, signal?: AbortSignal): TasksThunk {
  return async (dispatch, getState) => {
    try {
      const { pageSize, status } = getState().task;
      const page = await fetchTaskPage(client, pageSize, status, null, signal);
      if (!signal?.aborted) dispatch(tasksReceived(page));
    } catch (error) {
      if (!signal?.aborted) console.error('The tasks could not be loaded', error);
    }
  };
}

/** 'Get More': the page after the stored cursor is appended. */
export function loadMoreTasks(client: HttpClient, signal?: AbortSignal): TasksThunk {
  return async (dispatch, getState) => {
    const { pageSize, status, pageCursor } = getState().task;
    if (pageCursor === null || pageCursor === NO_MORE_RESULTS) return;
    try {
      const page = await fetchTaskPage(client, pageSize, status, pageCursor, signal);
      if (!signal?.aborted) dispatch(tasksAppended(page));
    } catch (error) {
      if (!signal?.aborted) dispatch(errorReported(errorMessage(error)));
    }
  };
}

/**
 * Opening a task makes it the current one. Whether the task is missing: an unknown id (or another
 * user's) is a 404, which forgets the current task; any other failure is the operation error.
 */
export function openTask(client: HttpClient, id: string, signal?: AbortSignal): TasksThunk<boolean> {
  return async (dispatch) => {
    try {
      const task = await fetchTask(client, id, signal);
      if (!signal?.aborted) dispatch(taskUpdated(task));
      return false;
    } catch (error) {
      if (signal?.aborted) return false;
      if (error instanceof ApiError && error.status === 404) {
        dispatch(taskDeleted());
        return true;
      }
      dispatch(errorReported(errorMessage(error)));
      return false;
    }
  };
}

/** One call whose reply becomes the current task and whose failure the operation error; whether it succeeded. */
function changeTask(call: () => Promise<Task>): TasksThunk<boolean> {
  return async (dispatch) => {
    try {
      dispatch(taskUpdated(await call()));
      return true;
    } catch (error) {
      dispatch(errorReported(errorMessage(error)));
      return false;
    }
  };
}

/** A click-to-edit field's Save; whether it saved, so that a refused value keeps its editor open. */
export function saveTaskField(client: HttpClient, id: string, key: TaskField, value: TaskFieldValue): TasksThunk<boolean> {
  return changeTask(() => updateTaskField(client, id, key, value));
}

/** 'Complete': the task moves on to its next occurrence, or becomes inactive (DESIGN §5). */
export function completeCurrentTask(client: HttpClient, id: string): TasksThunk<boolean> {
  return changeTask(() => completeTask(client, id));
}

/** 'Delete', once confirmed: the task leaves the list; whether it was deleted. */
export function deleteCurrentTask(client: HttpClient, id: string): TasksThunk<boolean> {
  return async (dispatch) => {
    try {
      await deleteTask(client, id);
      dispatch(taskRemoved(id));
      return true;
    } catch (error) {
      dispatch(errorReported(errorMessage(error)));
      return false;
    }
  };
}

/**
 * Creates a daily task (spec §3) and makes it the current one. A failure is logged and rethrown
 * (spec §8): the create screen shows it on its own, not as the list's operation error.
 */
export function addTask(client: HttpClient, draft: Pick<CreateTaskBody, 'name'> & { first_schedule_time: string }): TasksThunk<Task> {
  return async (dispatch) => {
    try {
      const task = await createTask(client, { ...draft, schedule_type: 'd' });
      dispatch(taskCreated(task));
      return task;
    } catch (error) {
      console.error('The task could not be created', error);
      throw error;
    }
  };
}
