import { EventEmitter } from 'node:events';
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import type { Logger } from '../logger.ts';
import type { Database } from '../storage/schema.ts';

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

/** One process: an EventEmitter carries the news to this process's open streams. */
export function createLocalUserEvents(): UserEvents {
  const local = localChannel();
  return { publish: async (uid) => local.emit(uid), subscribe: local.subscribe, close: async () => {} };
}

/** PostgreSQL: NOTIFY carries the news to every instance, each of which LISTENs and tells its own streams. */
export async function createPostgresUserEvents(
  db: Kysely<Database>,
  postgres: pg.PoolConfig,
  log: Logger,
): Promise<UserEvents> {
  const local = localChannel();
  const listener = await listenForever(postgres, log, local.emit);
  return {
    publish: async (uid) => {
      await sql`select pg_notify(${CHANNEL}, ${uid})`.execute(db);
    },
    subscribe: local.subscribe,
    close: () => listener.close(),
  };
}

function localChannel() {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    emit: (uid: string) => void emitter.emit(uid),
    subscribe(uid: string, listener: () => void) {
      emitter.on(uid, listener);
      return () => void emitter.off(uid, listener);
    },
  };
}

/** Keeps one LISTEN connection open, reconnecting after a drop, until closed. */
async function listenForever(config: pg.PoolConfig, log: Logger, onUid: (uid: string) => void) {
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
