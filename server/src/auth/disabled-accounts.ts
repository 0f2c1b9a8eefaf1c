import { type Kysely, sql } from 'kysely';
import type pg from 'pg';
import type { Logger } from '../logger.ts';
import { listenForever } from '../storage/postgres-listener.ts';
import type { Database } from '../storage/schema.ts';
import type { AccountChange } from '../users/accounts.service.ts';

const CHANNEL = 'organiser_account_disabled';

/**
 * The accounts whose every credential is refused at once: disabled ones, and ones deleted while
 * this process ran. Bearer tokens are checked from memory, so each request asks this set, in O(1),
 * rather than the database; it is read from the users table at start, and with PostgreSQL every
 * instance hears each change through NOTIFY, as session revocations are heard
 * (session-revocations.ts). Any credential kind a user holds (bearer token, calendar token, and
 * app passwords or API tokens when they come) asks `isDisabled` with the user's id.
 */
export type DisabledAccounts = {
  isDisabled(userId: string): boolean;
  /** Called after the row is written (or deleted): `enabled` lets the account in again. */
  announce(userId: string, change: AccountChange): Promise<void>;
  close(): Promise<void>;
};

/** A change as NOTIFY carries it: one sign, then the user id. */
const SIGNS = { disabled: '+', enabled: '-', deleted: 'x' } as const satisfies Record<AccountChange, string>;
const encode = (userId: string, change: AccountChange) => `${SIGNS[change]}${userId}`;

function disabledSet(db: Kysely<Database>) {
  let disabled = new Set<string>();
  // A deleted account has no row left to read again, so each process remembers it for good; such
  // ids are few and never come back.
  const deleted = new Set<string>();
  return {
    has: (userId: string) => disabled.has(userId) || deleted.has(userId),
    apply(encoded: string) {
      const userId = encoded.slice(1);
      if (encoded.startsWith(SIGNS.disabled)) disabled.add(userId);
      else if (encoded.startsWith(SIGNS.enabled)) disabled.delete(userId);
      else if (encoded.startsWith(SIGNS.deleted)) deleted.add(userId);
    },
    async reload() {
      const rows = await db.selectFrom('users').select('id').where('disabled_at', 'is not', null).execute();
      disabled = new Set(rows.map((row) => row.id));
    },
  };
}

export async function createLocalDisabledAccounts(db: Kysely<Database>): Promise<DisabledAccounts> {
  const set = disabledSet(db);
  await set.reload();
  return { isDisabled: set.has, announce: async (userId, change) => set.apply(encode(userId, change)), close: async () => {} };
}

export async function createPostgresDisabledAccounts(db: Kysely<Database>, postgres: pg.PoolConfig, log: Logger): Promise<DisabledAccounts> {
  const set = disabledSet(db);
  const listener = await listenForever(postgres, log, {
    channel: CHANNEL,
    onPayload: set.apply,
    // Changes announced while the connection was down are read from the table.
    onListening: set.reload,
  });
  return {
    isDisabled: set.has,
    async announce(userId, change) {
      set.apply(encode(userId, change));
      await sql`select pg_notify(${CHANNEL}, ${encode(userId, change)})`.execute(db);
    },
    close: () => listener.close(),
  };
}
