import { type Kysely, sql } from 'kysely';
import type pg from 'pg';
import type { Clock } from '../clock.ts';
import type { Logger } from '../logger.ts';
import { listenForever } from '../storage/postgres-listener.ts';
import type { Database } from '../storage/schema.ts';
import { createSessionsStore } from './sessions.store.ts';
import { ACCESS_TOKEN_SECONDS } from './tokens.ts';

const CHANNEL = 'organiser_session_revoked';
const TOKEN_LIFETIME_MS = ACCESS_TOKEN_SECONDS * 1000;

/**
 * The sessions (sign-ins) ended within a bearer token's lifetime. Bearer tokens are checked from
 * memory, not the database, so each request asks this set, in O(1), whether its token's session
 * has ended; a session ended longer ago than a token lives has no valid token left and is
 * forgotten. It is read from the sessions table at start, and with PostgreSQL every instance
 * hears each revocation through NOTIFY.
 */
export type SessionRevocations = {
  isRevoked(sessionId: string): boolean;
  /** Called after the rows are marked revoked: stops the sessions' bearer tokens here and on every instance. */
  announce(sessionIds: string[]): Promise<void>;
  close(): Promise<void>;
};

function revokedSet(db: Kysely<Database>, clock: Clock) {
  const revokedAt = new Map<string, number>();
  const forgetOld = () => {
    const before = clock.now() - TOKEN_LIFETIME_MS;
    for (const [id, at] of revokedAt) if (at < before) revokedAt.delete(id);
  };
  return {
    has: (id: string) => revokedAt.has(id),
    add(ids: string[]) {
      forgetOld();
      for (const id of ids) revokedAt.set(id, clock.now());
    },
    async reload() {
      const rows = await createSessionsStore(db).revokedSince(clock.now() - TOKEN_LIFETIME_MS);
      for (const row of rows) revokedAt.set(row.family_id, row.revoked_at);
    },
  };
}

export async function createLocalSessionRevocations(db: Kysely<Database>, clock: Clock): Promise<SessionRevocations> {
  const revoked = revokedSet(db, clock);
  await revoked.reload();
  return { isRevoked: revoked.has, announce: async (ids) => revoked.add(ids), close: async () => {} };
}

/** NOTIFY's payload is one session id (36 characters) per line, well under its 8,000-byte limit in batches of 100. */
const IDS_PER_NOTIFY = 100;

export async function createPostgresSessionRevocations(
  db: Kysely<Database>,
  clock: Clock,
  postgres: pg.PoolConfig,
  log: Logger,
): Promise<SessionRevocations> {
  const revoked = revokedSet(db, clock);
  const listener = await listenForever(postgres, log, {
    channel: CHANNEL,
    onPayload: (payload) => revoked.add(payload.split('\n')),
    // Revocations announced while the connection was down are read from the table.
    onListening: revoked.reload,
  });
  return {
    isRevoked: revoked.has,
    async announce(ids) {
      revoked.add(ids);
      for (let i = 0; i < ids.length; i += IDS_PER_NOTIFY) {
        await sql`select pg_notify(${CHANNEL}, ${ids.slice(i, i + IDS_PER_NOTIFY).join('\n')})`.execute(db);
      }
    },
    close: () => listener.close(),
  };
}
