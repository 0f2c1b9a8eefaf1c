import { describe, expect, it } from 'vitest';
import { signedIn, signedOut } from '../features/auth/auth.slice.ts';
import { aTask } from '../features/tasks/tasks.test-data.ts';
import { createAppStore, type RootState } from './store.ts';

const defaults: RootState = {
  app: {
    from: 0,
    size: 10,
    format: '',
    keys: '',
    fields: 'title',
    comment: false,
    sort: 'updated',
    view: 'list',
    error: null,
    books: [],
    total: 0,
    curBook: null,
    narrowing: null,
    libraryFolder: '',
    filesServed: false,
    textSearchable: false,
    snippets: {},
    preparing: null,
  },
  auth: { authenticated: false },
  task: { pageSize: 5, status: 'active', list: null, pageCursor: null, tasks: [], curTask: null, operationError: null },
  bookmark: {
    pageSize: 5,
    bookmarks: [],
    curBookmark: null,
    pageCursor: null,
    host_groups: [],
    tag_groups: [],
    total: null,
    operationError: null,
    shown: null,
    snippets: {},
    query: { form: { keyWords: '', createStart: '', createEnd: '', updateStart: '', updateEnd: '' }, searched: null },
  },
};

const task = aTask('t1', { name: 'Water the plants' });

describe('the store', () => {
  it('starts with the four slices at the defaults of docs/behaviour/screens.md', () => {
    expect(createAppStore().getState()).toEqual(defaults);
  });

  it("forgets every slice on sign-out, so the next person finds nothing of the last one's", () => {
    const store = createAppStore({
      ...defaults,
      task: { ...defaults.task, pageCursor: 'c2', tasks: [task], operationError: 'boom' },
      bookmark: { ...defaults.bookmark, host_groups: [{ key: 'example.org', doc_count: 3 }] },
    });
    store.dispatch(signedIn({ idToken: 't', user: { uid: 'u1', email: 'a@b.c', displayName: 'A', admin: false } }));

    store.dispatch(signedOut());

    expect(store.getState()).toEqual(defaults);
  });
});
