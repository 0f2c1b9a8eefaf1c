import { configureStore } from '@reduxjs/toolkit';
import { api, type ApiExtra } from './api.ts';
import type { HttpClient } from './http-client.ts';

export function createApiStore(client: HttpClient) {
  return configureStore({
    reducer: { [api.reducerPath]: api.reducer },
    middleware: (defaults) =>
      defaults({
        thunk: { extraArgument: { client } satisfies ApiExtra },
        // A file being uploaded is a call's argument, kept with the call as RTK Query keeps every argument.
        // A book file read for the reader (a Blob, a range's bytes) is a call's reply, kept until the reader takes it.
        serializableCheck: { ignoredPaths: [/^api\.mutations\.[^.]+\.originalArgs/, /^api\.mutations\.[^.]+\.data/] },
      }).concat(api.middleware),
  });
}

export type ApiStore = ReturnType<typeof createApiStore>;
