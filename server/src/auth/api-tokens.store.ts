import type { Kysely } from 'kysely';
import type { ApiTokensTable, Database } from '../storage/schema.ts';

/** A token found by its hash, with what a request needs to know of its owner. */
export type ApiTokenHolder = Pick<ApiTokensTable, 'id' | 'user_id' | 'scope' | 'last_used_at'> & {
  email: string;
  display_name: string;
  is_admin: number;
  password_change_required: number;
};

/** Each user's personal API tokens; every query but the lookup by hash has the owner in its WHERE. */
export function createApiTokensStore(db: Kysely<Database>) {
  return {
    async insert(row: ApiTokensTable): Promise<void> {
      await db.insertInto('api_tokens').values(row).execute();
    },
    async count(userId: string): Promise<number> {
      const row = await db
        .selectFrom('api_tokens')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },
    /** The user's tokens, newest first. */
    list(userId: string) {
      return db
        .selectFrom('api_tokens')
        .select(['id', 'name', 'scope', 'created_at', 'last_used_at'])
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .execute();
    },
    /** Whether the user had this token (it is gone either way). */
    async delete(userId: string, id: string): Promise<boolean> {
      const result = await db.deleteFrom('api_tokens').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },
    findByHash(tokenHash: string): Promise<ApiTokenHolder | undefined> {
      return db
        .selectFrom('api_tokens as t')
        .innerJoin('users as u', 'u.id', 't.user_id')
        .select(['t.id', 't.user_id', 't.scope', 't.last_used_at', 'u.email', 'u.display_name', 'u.is_admin', 'u.password_change_required'])
        .where('t.token_hash', '=', tokenHash)
        // A disabled account's tokens open nothing, on every instance, whatever its memory holds.
        .where('u.disabled_at', 'is', null)
        .executeTakeFirst();
    },
    async touch(id: string, at: number): Promise<void> {
      await db.updateTable('api_tokens').set({ last_used_at: at }).where('id', '=', id).execute();
    },
  };
}
export type ApiTokensStore = ReturnType<typeof createApiTokensStore>;
