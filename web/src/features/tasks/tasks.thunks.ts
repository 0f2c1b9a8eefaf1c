import type { ThunkAction, UnknownAction } from '@reduxjs/toolkit';
import type { ChecklistChangeBody, CreateTaskBody, TaskField } from '../../../../contract/task-requests.ts';
import { NO_MORE_RESULTS, type RepeatFrom, type ScheduleType, type Task } from '../../../../contract/tasks.ts';
import { type ApiDispatch, ASKED_FOR_A_SLICE, failureOf, runChange, runLoad } from '../../api/api.ts';
import { type TaskFieldValue, tasksApi } from './tasks.api.ts';
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

const { endpoints } = tasksApi;

/** The first page replaces the list; a failed load is only logged (docs/behaviour/tasks-and-notices.md). */
export function loadTasks(calls: ApiDispatch, signal?: AbortSignal): TasksThunk {
  return (dispatch, getState) =>
    runLoad(calls, signal, undefined, async ({ call }) => {
      try {
        const { pageSize, status, list } = getState().task;
        dispatch(tasksReceived(await call(endpoints.taskPage.initiate({ pageSize, status, list, cursor: null }, ASKED_FOR_A_SLICE))));
      } catch (error) {
        console.error('The tasks could not be loaded', error);
      }
    });
}

/** 'Get More': the page after the stored cursor is appended. */
export function loadMoreTasks(calls: ApiDispatch, signal?: AbortSignal): TasksThunk {
  return (dispatch, getState) =>
    runLoad(calls, signal, undefined, async ({ call }) => {
      const { pageSize, status, list, pageCursor } = getState().task;
      if (pageCursor === null || pageCursor === NO_MORE_RESULTS) return;
      try {
        dispatch(tasksAppended(await call(endpoints.taskPage.initiate({ pageSize, status, list, cursor: pageCursor }, ASKED_FOR_A_SLICE))));
      } catch (error) {
        dispatch(errorReported(failureOf(error).message));
      }
    });
}

/**
 * Opening a task makes it the current one. Whether the task is missing: an unknown id (or another
 * user's) is a 404, which forgets the current task; any other failure is the operation error.
 */
export function openTask(calls: ApiDispatch, id: string, signal?: AbortSignal): TasksThunk<boolean> {
  return (dispatch) =>
    runLoad(calls, signal, false, async ({ call }) => {
      try {
        dispatch(taskUpdated(await call(endpoints.task.initiate(id, ASKED_FOR_A_SLICE))));
        return false;
      } catch (error) {
        const failure = failureOf(error);
        if (failure.status === 404) {
          dispatch(taskDeleted());
          return true;
        }
        dispatch(errorReported(failure.message));
        return false;
      }
    });
}

/** One change whose reply becomes the current task and whose failure the operation error; whether it succeeded. */
function changeTask(change: () => Promise<Task>): TasksThunk<boolean> {
  return async (dispatch) => {
    try {
      dispatch(taskUpdated(await change()));
      return true;
    } catch (error) {
      dispatch(errorReported(failureOf(error).message));
      return false;
    }
  };
}

/** A click-to-edit field's Save; whether it saved, so that a refused value keeps its editor open. */
export function saveTaskField(calls: ApiDispatch, id: string, key: TaskField, value: TaskFieldValue): TasksThunk<boolean> {
  return changeTask(() => runChange(calls, endpoints.updateTaskField.initiate({ id, key, value })));
}

/** 'Complete': the task moves on to its next occurrence, or becomes inactive (docs/behaviour/tasks-and-notices.md). */
export function completeCurrentTask(calls: ApiDispatch, id: string): TasksThunk<boolean> {
  return changeTask(() => runChange(calls, endpoints.completeTask.initiate(id)));
}

/** A checklist item added, changed (text or tick) or removed; the reply is the task with its checklist. */
export function addChecklistItem(calls: ApiDispatch, id: string, text: string): TasksThunk<boolean> {
  return changeTask(() => runChange(calls, endpoints.addChecklistItem.initiate({ id, text })));
}

export function changeChecklistItem(calls: ApiDispatch, id: string, itemId: string, change: ChecklistChangeBody): TasksThunk<boolean> {
  return changeTask(() => runChange(calls, endpoints.changeChecklistItem.initiate({ id, itemId, change })));
}

export function removeChecklistItem(calls: ApiDispatch, id: string, itemId: string): TasksThunk<boolean> {
  return changeTask(() => runChange(calls, endpoints.removeChecklistItem.initiate({ id, itemId })));
}

/** 'Delete', once confirmed: the task leaves the list; whether it was deleted. */
export function deleteCurrentTask(calls: ApiDispatch, id: string): TasksThunk<boolean> {
  return async (dispatch) => {
    try {
      await runChange(calls, endpoints.deleteTask.initiate(id));
      dispatch(taskRemoved(id));
      return true;
    } catch (error) {
      dispatch(errorReported(failureOf(error).message));
      return false;
    }
  };
}

/**
 * Creates a task, daily unless another schedule type is chosen (docs/behaviour/tasks-and-notices.md), and makes it the current one. A failure is logged and rethrown
 * (docs/behaviour/tasks-and-notices.md): the create screen shows it on its own, not as the list's operation error.
 */
export function addTask(
  calls: ApiDispatch,
  draft: Pick<CreateTaskBody, 'name'> & { first_schedule_time: string; schedule_type?: ScheduleType; rrule?: string; repeat_from?: RepeatFrom; list_id?: string },
): TasksThunk<Task> {
  return async (dispatch) => {
    try {
      const task = await runChange(calls, endpoints.createTask.initiate({ ...draft, schedule_type: draft.schedule_type ?? 'd' }));
      dispatch(taskCreated(task));
      return task;
    } catch (error) {
      console.error('The task could not be created', error);
      throw error;
    }
  };
}
