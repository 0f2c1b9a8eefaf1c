import { createSlice, type PayloadAction, type ThunkDispatch, type UnknownAction } from '@reduxjs/toolkit';
import { useDispatch } from 'react-redux';
import { z } from 'zod';
import { screenChanged } from '../../lib/screen-changed.ts';
import { DEFAULT_TASK_PAGE_SIZE, NO_MORE_RESULTS, Task, type TaskPage, TaskStatus } from '../../../../contract/tasks.ts';

/** The task list state (docs/behaviour/tasks-and-notices.md). */
export const TaskState = z.object({
  pageSize: z.number().int().positive(),
  /** Which tasks the list shows: Active (the default list), Done or All. */
  status: TaskStatus.default('active'),
  /** One household list's tasks (its id), the caller's own (OWN_TASKS), or null for all of them. */
  list: z.string().nullable().default(null),
  /** The next page's cursor; NO_MORE_RESULTS once the list is whole; null before the first page. */
  pageCursor: z.string().nullable(),
  tasks: z.array(Task),
  curTask: Task.nullable(),
  operationError: z.string().nullable(),
});
export type TaskState = z.infer<typeof TaskState>;

const initialState: TaskState = {
  pageSize: DEFAULT_TASK_PAGE_SIZE,
  status: 'active',
  list: null,
  pageCursor: null,
  tasks: [],
  curTask: null,
  operationError: null,
};

/** Whether the list of this status shows the task. */
function listed(status: TaskStatus, task: Task): boolean {
  return status === 'all' || task.active === (status === 'active');
}

/** The cursor for the next page (docs/behaviour/tasks-and-notices.md): the marker when there is none, else the end cursor. */
function nextCursor(page: TaskPage): string {
  return page.queryInfo.moreResults === NO_MORE_RESULTS ? NO_MORE_RESULTS : (page.queryInfo.endCursor ?? NO_MORE_RESULTS);
}

export const taskSlice = createSlice({
  name: 'task',
  initialState,
  reducers: {
    /** get tasks: the first page replaces the list. */
    tasksReceived(state, action: PayloadAction<TaskPage>) {
      state.tasks = action.payload.tasks;
      state.pageCursor = nextCursor(action.payload);
      state.operationError = null;
    },
    /** add tasks: a later page, asked for with a cursor, is appended. */
    tasksAppended(state, action: PayloadAction<TaskPage>) {
      const known = new Set(state.tasks.map((task) => task.id));
      state.tasks.push(...action.payload.tasks.filter((task) => !known.has(task.id)));
      state.pageCursor = nextCursor(action.payload);
      state.operationError = null;
    },
    /** Another status chosen: the list is emptied until its first page comes. */
    statusChosen(state, action: PayloadAction<TaskStatus>) {
      state.status = action.payload;
      state.tasks = [];
      state.pageCursor = null;
    },
    /** Another list chosen (docs/behaviour/task-lists.md): emptied until its first page comes, as for a status. */
    listChosen(state, action: PayloadAction<string | null>) {
      if (state.list === action.payload) return;
      state.list = action.payload;
      state.tasks = [];
      state.pageCursor = null;
    },
    taskCreated(state, action: PayloadAction<Task>) {
      state.curTask = action.payload;
      state.operationError = null;
    },
    /** get one task, or the reply to an update or complete: the current task, and its row in the list. */
    taskUpdated(state, action: PayloadAction<Task>) {
      const task = action.payload;
      state.curTask = task;
      const at = state.tasks.findIndex((listed) => listed.id === task.id);
      if (at >= 0) {
        if (listed(state.status, task)) state.tasks[at] = task;
        else state.tasks.splice(at, 1);
      }
      state.operationError = null;
    },
    taskDeleted(state) {
      state.curTask = null;
    },
    /** A task deleted on the server: gone from the list, and no longer the current task. */
    taskRemoved(state, action: PayloadAction<string>) {
      state.tasks = state.tasks.filter((task) => task.id !== action.payload);
      if (state.curTask?.id === action.payload) state.curTask = null;
      state.operationError = null;
    },
    errorReported(state, action: PayloadAction<string>) {
      state.operationError = action.payload;
    },
  },
  extraReducers: (builder) => {
    builder.addCase(screenChanged, (state) => {
      state.operationError = null;
    });
  },
});

export const { tasksReceived, tasksAppended, statusChosen, listChosen, taskCreated, taskUpdated, taskDeleted, taskRemoved, errorReported } =
  taskSlice.actions;

/** The part of the root state the task screens read. */
export interface TasksRootState {
  task: TaskState;
}

export type TasksDispatch = ThunkDispatch<TasksRootState, unknown, UnknownAction>;
export const useTasksDispatch = useDispatch.withTypes<TasksDispatch>();
export const selectTasks = (state: TasksRootState): TaskState => state.task;
