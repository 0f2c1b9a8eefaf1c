import { createSlice } from '@reduxjs/toolkit';
import { z } from 'zod';

/** A search facet: a host or tag and how many bookmarks have it. */
const Group = z.object({ key: z.string(), doc_count: z.number().int().nonnegative() });

/** The bookmark state (spec §3). */
export const BookmarkState = z.object({
  pageSize: z.number().int().positive(),
  // Items are typed once the bookmark contract exists; until then nothing but [] and null is ever stored.
  bookmarks: z.array(z.unknown()),
  curBookmark: z.unknown(),
  pageCursor: z.string().nullable(),
  host_groups: z.array(Group),
  tag_groups: z.array(Group),
  operationError: z.string().nullable(),
});
export type BookmarkState = z.infer<typeof BookmarkState>;

const initialState: BookmarkState = {
  pageSize: 5,
  bookmarks: [],
  curBookmark: null,
  pageCursor: null,
  host_groups: [],
  tag_groups: [],
  operationError: null,
};

export const bookmarkSlice = createSlice({
  name: 'bookmark',
  initialState,
  reducers: {},
});
