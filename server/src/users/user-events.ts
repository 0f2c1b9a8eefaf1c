import { EventEmitter } from 'node:events';
import { type Kysely, sql } from 'kysely';
import type pg from 'pg';
import type { Logger } from '../logger.ts';
import { listenForever } from '../storage/postgres-listener.ts';
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
  const listener = await listenForever(postgres, log, { channel: CHANNEL, onPayload: local.emit });
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
