import { createParser } from 'eventsource-parser';
import type { z } from 'zod';
import type { HttpClient } from './http-client.ts';

export interface FollowOptions {
  /** The first wait before reconnecting; it doubles with each failed attempt, up to `maxDelayMs`. */
  retryDelayMs?: number;
  maxDelayMs?: number;
  /**
   * With nothing received for this long, not even the server's `: ping`, the connection is taken
   * for dead: a laptop that slept, or a proxy that dropped it without closing it.
   */
  idleTimeoutMs?: number;
}

/** One Server-Sent Events stream of the API: its path, the event it carries, and that event's data. */
export interface EventStream<S extends z.ZodType> {
  path: string;
  event: string;
  schema: S;
  /** For messages: "profile", "catalogue load". */
  name: string;
}

/**
 * Keeps a stream open until `signal` aborts, handing the data of each of its events received to
 * `onData`; reconnects with a short backoff whenever the stream ends or fails.
 */
export async function followEvents<S extends z.ZodType>(
  client: HttpClient,
  stream: EventStream<S>,
  onData: (data: z.output<S>) => void,
  signal: AbortSignal,
  { retryDelayMs = 1000, maxDelayMs = 15_000, idleTimeoutMs = 60_000 }: FollowOptions = {},
): Promise<void> {
  let delay = retryDelayMs;
  while (!signal.aborted) {
    try {
      await readEvents(client, stream, onData, signal, idleTimeoutMs, () => {
        delay = retryDelayMs;
      });
    } catch (error) {
      if (signal.aborted) return;
      console.warn(`The ${stream.name} stream failed; reconnecting`, error);
    }
    await pause(delay, signal);
    delay = Math.min(delay * 2, maxDelayMs);
  }
}

async function readEvents<S extends z.ZodType>(
  client: HttpClient,
  stream: EventStream<S>,
  onData: (data: z.output<S>) => void,
  signal: AbortSignal,
  idleTimeoutMs: number,
  onConnected: () => void,
): Promise<void> {
  const idle = new AbortController();
  let watchdog: ReturnType<typeof setTimeout> | undefined;
  const stillAlive = () => {
    clearTimeout(watchdog);
    watchdog = setTimeout(() => idle.abort(new Error(`The ${stream.name} stream went silent`)), idleTimeoutMs);
  };
  const parser = createParser({
    onEvent(event) {
      if (event.event !== stream.event) return;
      const data = parseData(stream, event.data);
      if (data !== undefined) onData(data);
    },
  });

  stillAlive();
  try {
    const response = await client.stream(stream.path, { signal: AbortSignal.any([signal, idle.signal]) });
    onConnected();
    if (response.body === null) return;
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      stillAlive();
      parser.feed(value);
    }
  } finally {
    clearTimeout(watchdog);
  }
}

function parseData<S extends z.ZodType>(stream: EventStream<S>, data: string): z.output<S> | undefined {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    json = undefined;
  }
  const parsed = stream.schema.safeParse(json);
  if (!parsed.success) console.warn(`Skipped a malformed ${stream.name} event`, data);
  return parsed.success ? parsed.data : undefined;
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
  });
}
