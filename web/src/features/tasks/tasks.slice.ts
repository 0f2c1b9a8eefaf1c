import { createSlice } from '@reduxjs/toolkit';
import { z } from 'zod';

/** The task list state (spec §3). */
export const TaskState = z.object({
  pageSize: z.number().int().positive(),
  pageCursor: z.string().nullable(),
  // Items are typed once the task contract exists; until then nothing but [] and null is ever stored.
  tasks: z.array(z.unknown()),
  curTask: z.unknown(),
  operationError: z.string().nullable(),
});
export type TaskState = z.infer<typeof TaskState>;

const initialState: TaskState = {
  pageSize: 5,
  pageCursor: null,
  tasks: [],
  curTask: null,
  operationError: null,
};

export const taskSlice = createSlice({
  name: 'task',
  initialState,
  reducers: {},
});
