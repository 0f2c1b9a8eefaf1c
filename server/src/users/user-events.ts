import { EventEmitter } from 'node:events';
import { sql } from 'kysely';
import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import type { Storage } from '../storage/database.ts';

const CHANNEL = 'organiser_user_changed';

/**
 * "This user's record changed." In one process an EventEmitter carries it; with PostgreSQL,
 * NOTIFY carries it to every server instance on the database, each of which tells its own
 * open streams.
 */
export type UserEvents = {
  publish(uid: string): Promise<void>;
  subscribe(uid: string, listener: () => void): () => void;
  close(): Promise<void>;
};

export async function createUserEvents(storage: Storage, log: FastifyBaseLogger): Promise<UserEvents> {
  const local = new EventEmitter();
  local.setMaxListeners(0);
  const subscribe = (uid: string, listener: () => void) => {
    local.on(uid, listener);
    return () => void local.off(uid, listener);
  };
  if (!storage.postgres) {
    return { publish: async (uid) => void local.emit(uid), subscribe, close: async () => {} };
  }
  const listener = await listenForever(storage.postgres, log, (uid) => local.emit(uid));
  return {
    publish: async (uid) => {
      await sql`select pg_notify(${CHANNEL}, ${uid})`.execute(storage.db);
    },
    subscribe,
    close: () => listener.close(),
  };
}

/** Keeps one LISTEN connection open, reconnecting after a drop, until closed. */
async function listenForever(config: pg.PoolConfig, log: FastifyBaseLogger, onUid: (uid: string) => void) {
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  async function connect(): Promise<void> {
    const next = new pg.Client(config);
    next.on('notification', (message) => {
      if (message.channel === CHANNEL && message.payload) onUid(message.payload);
    });
    next.on('error', (error) => {
      log.warn({ err: error }, 'user events: LISTEN connection lost; reconnecting');
      next.end().catch(() => {});
      if (!closed) retry = setTimeout(() => void connect().catch(() => {}), 1000);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANNEL}`);
      client = next;
    } catch (error) {
      next.end().catch(() => {});
      if (closed) return;
      log.warn({ err: error }, 'user events: cannot LISTEN; retrying');
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
