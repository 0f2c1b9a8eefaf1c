import { combineReducers, configureStore, type UnknownAction } from '@reduxjs/toolkit';
import { authSlice, signedOut } from '../features/auth/auth.slice.ts';
import { bookmarkSlice } from '../features/bookmarks/bookmarks.slice.ts';
import { bookSearchSlice } from '../features/books/books.slice.ts';
import { taskSlice } from '../features/tasks/tasks.slice.ts';

const sliceReducers = combineReducers({
  app: bookSearchSlice.reducer,
  auth: authSlice.reducer,
  task: taskSlice.reducer,
  bookmark: bookmarkSlice.reducer,
});

export type RootState = ReturnType<typeof sliceReducers>;

/** Signing out forgets everything, so the next person at this browser finds nothing of the last one's. */
export function rootReducer(state: RootState | undefined, action: UnknownAction): RootState {
  return sliceReducers(signedOut.match(action) ? undefined : state, action);
}

export function createAppStore(preloadedState?: RootState) {
  return configureStore({ reducer: rootReducer, preloadedState });
}

export type AppStore = ReturnType<typeof createAppStore>;
