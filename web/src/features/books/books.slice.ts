import { createSlice } from '@reduxjs/toolkit';
import { z } from 'zod';

/** The book search settings and results (spec §3); the spec calls this slice `app`. */
export const BookSearchState = z.object({
  from: z.number().int().nonnegative(),
  size: z.number().int().positive(),
  /** Empty means every format. */
  format: z.string(),
  keys: z.string(),
  /** Comma separated. */
  fields: z.string(),
  comment: z.boolean(),
  error: z.string().nullable(),
  // Items are typed once the book contract exists; until then nothing but [] is ever stored.
  books: z.array(z.unknown()),
  total: z.number().int().nonnegative(),
});
export type BookSearchState = z.infer<typeof BookSearchState>;

const initialState: BookSearchState = {
  from: 0,
  size: 10,
  format: '',
  keys: '',
  fields: 'title',
  comment: false,
  error: null,
  books: [],
  total: 0,
};

export const bookSearchSlice = createSlice({
  name: 'app',
  initialState,
  reducers: {},
});
