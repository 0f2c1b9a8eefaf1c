import { z } from 'zod';
import { AuthState, authSlice } from '../features/auth/auth.slice.ts';
import { BookmarkState, bookmarkSlice } from '../features/bookmarks/bookmarks.slice.ts';
import { BookSearchState, bookSearchSlice } from '../features/books/books.slice.ts';
import { TaskState, taskSlice } from '../features/tasks/tasks.slice.ts';
import type { RootState } from './store.ts';

/** The one localStorage key that holds the whole state (docs/behaviour/screens.md). */
export const STATE_KEY = 'organiser.state';

export type StateStorage = Pick<Storage, 'getItem' | 'setItem'>;

// A slice saved by an older version, or damaged, falls back to its defaults alone.
const PersistedState = z.object({
  app: BookSearchState.catch(() => bookSearchSlice.getInitialState()),
  auth: AuthState.catch(() => authSlice.getInitialState()),
  task: TaskState.catch(() => taskSlice.getInitialState()),
  bookmark: BookmarkState.catch(() => bookmarkSlice.getInitialState()),
});

/** The saved state, or undefined for the defaults when there is none that can be read. */
export function restoreState(storage: StateStorage): RootState | undefined {
  try {
    const saved = storage.getItem(STATE_KEY);
    if (saved === null) return undefined;
    const parsed = PersistedState.safeParse(JSON.parse(saved));
    return parsed.success ? parsed.data : undefined;
  } catch (error) {
    console.warn('The saved state could not be read; starting afresh', error);
    return undefined;
  }
}

interface ObservableStore {
  getState(): RootState;
  subscribe(listener: () => void): () => void;
}

/**
 * Saves the state at most once per `waitMs` after it changes. Returns a function that saves
 * at once, for when the page goes away.
 */
export function persistState(store: ObservableStore, storage: StateStorage, waitMs = 500): () => void {
  let saved = store.getState();
  let timer: ReturnType<typeof setTimeout> | undefined;

  function flush(): void {
    clearTimeout(timer);
    timer = undefined;
    const state = store.getState();
    if (state === saved) return;
    try {
      storage.setItem(STATE_KEY, JSON.stringify(state));
      saved = state;
    } catch (error) {
      console.warn('The state could not be saved', error);
    }
  }

  store.subscribe(() => {
    timer ??= setTimeout(flush, waitMs);
  });
  return flush;
}
