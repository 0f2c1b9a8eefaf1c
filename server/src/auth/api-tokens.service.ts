import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  API_TOKEN_PREFIX,
  type ApiToken,
  type ApiTokenScope,
  type CreateApiTokenBody,
  type CreatedApiToken,
  MAX_API_TOKENS,
} from '../../../contract/api-tokens.ts';
import type { Clock } from '../clock.ts';
import { AppError, notFound } from '../errors.ts';
import type { ApiTokensStore } from './api-tokens.store.ts';
import type { TokenUser } from './tokens.ts';

/** A token's last use is written at most this often: not one write per request. */
export const LAST_USED_PRECISION_MS = 60_000;

/** What a good token shows a request to be. */
export type ApiTokenBearer = { user: TokenUser; scope: ApiTokenScope; tokenId: string };

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');
const iso = (ms: number) => new Date(Number(ms)).toISOString();

/**
 * Personal API tokens, for scripts and browser extensions: 32 random bytes after the `org_`
 * prefix, shown once and kept as their SHA-256 (a fast hash is enough for 256 random bits). A
 * request's token is looked up in the database every time, so a revoked token is refused at once,
 * on every server instance, with nothing cached to outlive it.
 */
export function createApiTokensService({ store, clock }: { store: ApiTokensStore; clock: Clock }) {
  return {
    async create(userId: string, { name, scope }: CreateApiTokenBody): Promise<CreatedApiToken> {
      if ((await store.count(userId)) >= MAX_API_TOKENS) {
        throw new AppError(409, `You have ${MAX_API_TOKENS} API tokens, the most one may hold; revoke one you no longer use first`);
      }
      const token = API_TOKEN_PREFIX + randomBytes(32).toString('base64url');
      const id = randomUUID();
      await store.insert({ id, user_id: userId, name, scope, token_hash: hashOf(token), created_at: clock.now(), last_used_at: null });
      return { id, token };
    },

    async list(userId: string): Promise<ApiToken[]> {
      const rows = await store.list(userId);
      return rows.map((row) => ({
        id: row.id,
        name: row.name,
        scope: row.scope,
        createdAt: iso(row.created_at),
        lastUsedAt: row.last_used_at === null ? null : iso(row.last_used_at),
      }));
    },

    async revoke(userId: string, id: string): Promise<void> {
      if (!(await store.delete(userId, id))) throw notFound('API token');
    },

    /** The token's holder, or null for a token that is unknown or revoked; notes its use. */
    async authenticate(token: string): Promise<ApiTokenBearer | null> {
      const found = await store.findByHash(hashOf(token));
      if (!found) return null;
      const now = clock.now();
      if (found.last_used_at === null || now - Number(found.last_used_at) >= LAST_USED_PRECISION_MS) await store.touch(found.id, now);
      return {
        user: {
          uid: found.user_id,
          email: found.email,
          displayName: found.display_name,
          admin: Number(found.is_admin) === 1,
          sessionId: null,
          passwordChangeRequired: Number(found.password_change_required) === 1,
        },
        scope: found.scope,
        tokenId: found.id,
      };
    },
  };
}
export type ApiTokensService = ReturnType<typeof createApiTokensService>;
