import { describe, expect, it } from 'vitest';
import { signedIn, signedOut } from '../features/auth/auth.slice.ts';
import { createAppStore, type RootState } from './store.ts';
import type { Task } from '../../../contract/tasks.ts';

const defaults: RootState = {
  app: {
    from: 0,
    size: 10,
    format: '',
    keys: '',
    fields: 'title',
    comment: false,
    error: null,
    books: [],
    total: 0,
    curBook: null,
  },
  auth: { authenticated: false },
  task: { pageSize: 5, pageCursor: null, tasks: [], curTask: null, operationError: null },
  bookmark: {
    pageSize: 5,
    bookmarks: [],
    curBookmark: null,
    pageCursor: null,
    host_groups: [],
    tag_groups: [],
    operationError: null,
  },
};

const aTask: Task = {
  id: 't1',
  name: 'Water the plants',
  active: true,
  create_time: '2026-01-05T12:00:00.000Z',
  last_updated: '2026-01-05T12:00:00.000Z',
  first_schedule_time: '2026-01-06T09:00:00.000Z',
  schedule_end_time: null,
  schedule_type: 'd',
  schedule_time: '2026-01-06T09:00:00.000Z',
  next_notice_time: '2026-01-06T09:00:00.000Z',
  emails: [],
  overdue_notice: true,
  notice_hours: [],
  notice_in_workday: false,
  comment: '',
  notice_error: null,
};

describe('the store', () => {
  it('starts with the four slices at the defaults of spec §3', () => {
    expect(createAppStore().getState()).toEqual(defaults);
  });

  it("forgets every slice on sign-out, so the next person finds nothing of the last one's", () => {
    const store = createAppStore({
      ...defaults,
      task: { ...defaults.task, pageCursor: 'c2', tasks: [aTask], operationError: 'boom' },
      bookmark: { ...defaults.bookmark, host_groups: [{ key: 'example.org', doc_count: 3 }] },
    });
    store.dispatch(signedIn({ idToken: 't', user: { uid: 'u1', email: 'a@b.c', displayName: 'A', admin: false } }));

    store.dispatch(signedOut());

    expect(store.getState()).toEqual(defaults);
  });
});
