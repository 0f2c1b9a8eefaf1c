import pg from 'pg';
import type { Logger } from '../logger.ts';

export type PostgresListener = { close(): Promise<void> };

/**
 * Keeps one LISTEN connection on `channel` open, reconnecting after a drop, until closed.
 * `onListening` runs each time it (re)starts listening: what was announced while it was away
 * is lost, and a caller that must not miss anything reads it again there.
 */
export async function listenForever(
  config: pg.PoolConfig,
  log: Logger,
  { channel, onPayload, onListening }: { channel: string; onPayload: (payload: string) => void; onListening?: () => Promise<void> },
): Promise<PostgresListener> {
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  async function connect(): Promise<void> {
    const next = new pg.Client(config);
    next.on('notification', (message) => {
      if (message.channel === channel && message.payload) onPayload(message.payload);
    });
    next.on('error', (error) => {
      log.warn({ err: error, channel }, 'LISTEN connection lost; reconnecting');
      next.end().catch(() => {});
      if (!closed) retry = setTimeout(() => void connect().catch(() => {}), 1000);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${channel}`);
      client = next;
      await onListening?.();
    } catch (error) {
      next.end().catch(() => {});
      if (closed) return;
      log.warn({ err: error, channel }, 'cannot LISTEN; retrying');
      retry = setTimeout(() => void connect().catch(() => {}), 1000);
    }
  }

  await connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => {});
    },
  };
}
