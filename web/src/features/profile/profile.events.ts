import { createParser } from 'eventsource-parser';
import { USER_EVENT, UserRecord } from '../../../../contract/users.ts';
import type { HttpClient } from '../../api/http-client.ts';

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

/**
 * Keeps the user-record stream open until `signal` aborts, handing each record received to
 * `onRecord`; reconnects with a short backoff whenever the stream ends or fails.
 */
export async function followProfileEvents(
  client: HttpClient,
  onRecord: (record: UserRecord) => void,
  signal: AbortSignal,
  { retryDelayMs = 1000, maxDelayMs = 15_000, idleTimeoutMs = 60_000 }: FollowOptions = {},
): Promise<void> {
  let delay = retryDelayMs;
  while (!signal.aborted) {
    try {
      await readProfileEvents(client, onRecord, signal, idleTimeoutMs, () => {
        delay = retryDelayMs;
      });
    } catch (error) {
      if (signal.aborted) return;
      console.warn('The profile stream failed; reconnecting', error);
    }
    await pause(delay, signal);
    delay = Math.min(delay * 2, maxDelayMs);
  }
}

async function readProfileEvents(
  client: HttpClient,
  onRecord: (record: UserRecord) => void,
  signal: AbortSignal,
  idleTimeoutMs: number,
  onConnected: () => void,
): Promise<void> {
  const idle = new AbortController();
  let watchdog: ReturnType<typeof setTimeout> | undefined;
  const stillAlive = () => {
    clearTimeout(watchdog);
    watchdog = setTimeout(() => idle.abort(new Error('The profile stream went silent')), idleTimeoutMs);
  };
  const parser = createParser({
    onEvent(event) {
      if (event.event !== USER_EVENT) return;
      const record = parseRecord(event.data);
      if (record !== null) onRecord(record);
    },
  });

  stillAlive();
  try {
    const response = await client.stream('/api/users/me/events', { signal: AbortSignal.any([signal, idle.signal]) });
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

function parseRecord(data: string): UserRecord | null {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    json = undefined;
  }
  const parsed = UserRecord.safeParse(json);
  if (!parsed.success) console.warn('Skipped a malformed user event', data);
  return parsed.success ? parsed.data : null;
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
