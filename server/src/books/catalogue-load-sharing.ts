import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { CatalogueLoad } from '../../../contract/books.ts';
import type { Logger } from '../logger.ts';
import { listenForever } from '../storage/postgres-listener.ts';
import type { Database } from '../storage/schema.ts';

const CHANNEL = 'organiser_catalogue_load';

/**
 * What the server instances on one database share about catalogue loads: the right to run one
 * (one at a time across all of them), each load's progress, and a cancel asked of another instance.
 */
export type LoadSharing = {
  /** The right to load, or null while another instance holds it; the function gives it back. */
  acquire(): Promise<(() => Promise<void>) | null>;
  publish(load: CatalogueLoad): Promise<void>;
  /** Another instance's load, as it goes. */
  subscribe(onLoad: (load: CatalogueLoad) => void): void;
  askCancel(id: string): Promise<void>;
  onCancelAsked(cancel: (id: string) => void): void;
  close(): Promise<void>;
};

/** SQLite: one server per file (docs/architecture.md, Storage), so the process's own registry is the whole truth. */
export function createLocalLoadSharing(): LoadSharing {
  return {
    acquire: async () => async () => {},
    publish: async () => {},
    subscribe: () => {},
    askCancel: async () => {},
    onCancelAsked: () => {},
    close: async () => {},
  };
}

type Message = { schema: string; from: string } & ({ load: CatalogueLoad } | { cancel: string });

/**
 * PostgreSQL: the right to load is a session advisory lock held by a connection of its own, so
 * it is let go when the load ends or its instance dies; progress and cancels travel by NOTIFY.
 * Locks and channels are the database's, not the schema's: both are keyed by the schema.
 */
export async function createPostgresLoadSharing(
  db: Kysely<Database>,
  postgres: pg.PoolConfig,
  log: Logger,
  instance: string,
): Promise<LoadSharing> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const schema = rows[0]!.schema;
  const loadListeners: Array<(load: CatalogueLoad) => void> = [];
  const cancelListeners: Array<(id: string) => void> = [];

  const onPayload = (payload: string) => {
    let message: Message;
    try {
      message = JSON.parse(payload) as Message;
    } catch {
      return;
    }
    if (message.schema !== schema || message.from === instance) return;
    if ('cancel' in message) {
      for (const cancel of cancelListeners) cancel(message.cancel);
      return;
    }
    const load = CatalogueLoad.safeParse(message.load);
    if (load.success) for (const listener of loadListeners) listener(load.data);
  };
  const listener = await listenForever(postgres, log, { channel: CHANNEL, onPayload });
  const notify = async (message: Omit<Message, 'schema' | 'from'>) => {
    await sql`select pg_notify(${CHANNEL}, ${JSON.stringify({ ...message, schema, from: instance })})`.execute(db);
  };

  return {
    async acquire() {
      const client = new pg.Client(postgres);
      await client.connect();
      const taken = await client.query<{ taken: boolean }>(
        `select pg_try_advisory_lock(hashtext($1)) as taken`,
        [`${schema}.catalogue_load`],
      );
      if (!taken.rows[0]?.taken) {
        await client.end();
        return null;
      }
      return () => client.end().catch((error: unknown) => log.warn({ err: error }, 'closing the catalogue load lock failed'));
    },
    publish: (load) => notify({ load }).catch((error: unknown) => log.warn({ err: error }, 'telling a load’s progress failed')),
    subscribe: (onLoad) => void loadListeners.push(onLoad),
    askCancel: (id) => notify({ cancel: id }),
    onCancelAsked: (cancel) => void cancelListeners.push(cancel),
    close: () => listener.close(),
  };
}
