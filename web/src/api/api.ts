import type { ThunkAction, ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { buildCreateApi, coreModule, type BaseQueryFn } from '@reduxjs/toolkit/query';
import { reactHooksModule } from '@reduxjs/toolkit/query/react';
import { createContext, useEffect, useMemo, useRef } from 'react';
import type { z } from 'zod';
import { createDispatchHook, createSelectorHook, createStoreHook, type ReactReduxContextValue } from 'react-redux';
import { ApiError, errorMessage } from './api-error.ts';
import type { HttpClient, RequestOptions } from './http-client.ts';

/** A call of the one HTTP client, which adds the bearer token, refreshes it, and parses the reply with the contract. */
export type ClientCall = (client: HttpClient, signal: AbortSignal) => Promise<unknown>;

/** A failed call as the cache keeps it: the server's status (null when it was not reached) and words fit to show. */
export interface ApiFailure {
  status: number | null;
  message: string;
  /** The reply's body as it came, for the fields some errors carry beside the message. */
  body: unknown;
  /** The reply's `Retry-After` in seconds, when it has one. */
  retryAfterSeconds: number | null;
}

/** What the cache's store hands every call: the client, made once with the session it serves. */
export interface ApiExtra {
  client: HttpClient;
}

/** A call answered with JSON, parsed with the contract's `reply`. */
export const jsonCall =
  <S extends z.ZodType>(path: string, reply: S, options: RequestOptions = {}): ClientCall =>
  (client, signal) =>
    client.json(path, reply, { signal, ...options });

/** A call answered with 204 No Content. */
export const emptyCall =
  (path: string, options: RequestOptions = {}): ClientCall =>
  (client, signal) =>
    client.empty(path, { signal, ...options });

const isApiFailure = (error: unknown): error is ApiFailure =>
  typeof error === 'object' && error !== null && 'status' in error && 'message' in error && 'retryAfterSeconds' in error;

/** Any error as a failed call: a call's failure (as `unwrap` throws it) stays as it is. */
export function failureOf(error: unknown): ApiFailure {
  if (error instanceof ApiError) return { status: error.status, message: error.message, body: error.body, retryAfterSeconds: error.retryAfterSeconds };
  if (isApiFailure(error)) return error;
  return { status: null, message: errorMessage(error), body: null, retryAfterSeconds: null };
}

const clientBaseQuery: BaseQueryFn<ClientCall, unknown, ApiFailure> = async (call, { signal, extra }) => {
  try {
    // The cache keeps null for a call answered with no content.
    return { data: (await call((extra as ApiExtra).client, signal)) ?? null };
  } catch (error) {
    return { error: failureOf(error) };
  }
};

/**
 * The cache lives in a store of its own: the app's store holds the specification's four slices,
 * all of them persisted, and nothing else.
 */
export const ApiStoreContext = createContext<ReactReduxContextValue | null>(null);

export const useApiDispatch = createDispatchHook(ApiStoreContext);

const useApiSelector = createSelectorHook(ApiStoreContext);

const createApi = buildCreateApi(
  coreModule(),
  reactHooksModule({
    hooks: { useDispatch: useApiDispatch, useSelector: useApiSelector, useStore: createStoreHook(ApiStoreContext) },
  }),
);

/** The one data layer: each feature adds its endpoints with `api.injectEndpoints`, and a change invalidates what it makes stale. */
export const api = createApi({
  baseQuery: clientBaseQuery,
  tagTypes: ['AdminInvitations', 'AdminUsers', 'ApiTokens', 'AppPasswords', 'Calendar', 'Completions', 'CutShortImport', 'EReaders', 'NoticeChannels', 'Sessions', 'Shelves', 'SignInMethods', 'Tags', 'TaskLists'],
  // A screen opened shows what the server holds now, as it did before there was a cache.
  refetchOnMountOrArgChange: true,
  endpoints: () => ({}),
});

type ApiState = { [api.reducerPath]: ReturnType<typeof api.reducer> };

/** The cache store's dispatch: a thunk of the specification's slices runs each of its calls with it. */
export type ApiDispatch = ThunkDispatch<ApiState, ApiExtra, UnknownAction>;

/** An endpoint's call as `endpoint.initiate(arg)` makes it: a query's or a mutation's. */
type EndpointCall<T> = ThunkAction<{ unwrap(): Promise<T> }, ApiState, ApiExtra, UnknownAction>;

/**
 * How a slice's thunk asks a query: afresh each time, since the slice keeps the reply (persisted,
 * as the specification says) and the cache need not.
 */
export const ASKED_FOR_A_SLICE = { subscribe: false, forceRefetch: true } as const;

export interface LoadSteps {
  /** Runs an endpoint's call: its reply, or its failure thrown (an `ApiFailure`). */
  call<T>(request: EndpointCall<T>): Promise<T>;
  /** Waits `ms`, as before asking again a server that said when. */
  pause(ms: number): Promise<void>;
}

/**
 * One load of a slice's thunk, which its screen drops by aborting `signal` (the screen left, or a
 * newer load of it began). From then on its call under way never answers and its pause never ends,
 * so nothing of it reaches the slice, and the load settles at once with `dropped`.
 */
export function runLoad<T>(calls: ApiDispatch, signal: AbortSignal | undefined, dropped: T, work: (steps: LoadSteps) => Promise<T>): Promise<T> {
  const silentOnceDropped = <R>(answer: Promise<R>) =>
    new Promise<R>((resolve, reject) => {
      answer.then(
        (value) => signal?.aborted || resolve(value),
        (error: unknown) => signal?.aborted || reject(error),
      );
    });
  const steps: LoadSteps = {
    call: (request) => silentOnceDropped(calls(request).unwrap()),
    pause: (ms) => silentOnceDropped(new Promise<void>((resolve) => setTimeout(resolve, ms))),
  };
  if (signal === undefined) return work(steps);
  const droppedNow = new Promise<T>((resolve) => {
    if (signal.aborted) resolve(dropped);
    signal.addEventListener('abort', () => resolve(dropped), { once: true });
  });
  return Promise.race([droppedNow, work(steps)]);
}

/**
 * Runs a change (a mutation's `initiate(arg)`) for a slice's thunk: its reply, or its failure
 * thrown. The cache forgets the call once answered: the slice keeps what it changed.
 */
export async function runChange<T>(calls: ApiDispatch, request: ThunkAction<{ unwrap(): Promise<T>; reset(): void }, ApiState, ApiExtra, UnknownAction>): Promise<T> {
  const running = calls(request);
  try {
    return await running.unwrap();
  } finally {
    running.reset();
  }
}

/** Whether a call of the named endpoints is under way: the spinner of a screen whose slice's thunk loads. */
export function useCallsUnderWay(...endpoints: string[]): boolean {
  return useApiSelector((state: ApiState) => {
    const { queries, mutations } = state[api.reducerPath];
    return [...Object.values(queries), ...Object.values(mutations)].some(
      (entry) => entry?.status === 'pending' && endpoints.includes(entry.endpointName),
    );
  });
}

/**
 * For a screen whose loads supersede one another (a new search, 'More', the list shown again):
 * `next` gives the signal of a new load and aborts the load before, `drop` aborts it with none
 * after (Clear List); leaving the screen aborts the last.
 */
export function useSupersedingLoads(): { next(): AbortSignal; drop(): void } {
  const current = useRef<AbortController | null>(null);
  useEffect(() => () => current.current?.abort(), []);
  // The same functions on every render, so that an effect can depend on them.
  return useMemo(() => {
    const drop = () => current.current?.abort();
    const next = () => {
      drop();
      current.current = new AbortController();
      return current.current.signal;
    };
    return { next, drop };
  }, []);
}
