import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.ts';

export type SessionRow = Database['sessions'];

/**
 * Refresh-token rows: one family per sign-in (a "session" to its user, named by the family id),
 * one row per rotation; the family's live row is the one not yet rotated.
 */
export function createSessionsStore(db: Kysely<Database>) {
  return {
    insert(row: SessionRow) {
      return db.insertInto('sessions').values(row).execute();
    },
    findByHash(tokenHash: string) {
      return db.selectFrom('sessions').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
    },
    /**
     * Marks `id` rotated and inserts its successor, together; false (and nothing written) when
     * another request rotated it first.
     */
    rotate(id: string, at: number, successor: SessionRow): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('sessions')
          .set({ rotated_at: at })
          .where('id', '=', id)
          .where('rotated_at', 'is', null)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) !== 1) return false;
        await trx.insertInto('sessions').values(successor).execute();
        return true;
      });
    },
    /** The user's sessions still in use, most recently used first. */
    live(userId: string, now: number) {
      return db
        .selectFrom('sessions')
        .select(['family_id', 'user_agent', 'address', 'created_at'])
        .where('user_id', '=', userId)
        .where('rotated_at', 'is', null)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .orderBy('created_at', 'desc')
        .execute();
    },
    revokeFamily(familyId: string, at: number) {
      return db
        .updateTable('sessions')
        .set({ revoked_at: at })
        .where('family_id', '=', familyId)
        .where('revoked_at', 'is', null)
        .execute();
    },
    /** Ends the user's sessions that `keep` does not name (all of them when it is null); the ids of those ended. */
    async revokeFamiliesOf(userId: string, { only, keep }: { only?: string; keep?: string | null }, at: number): Promise<string[]> {
      let query = db
        .updateTable('sessions')
        .set({ revoked_at: at })
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null);
      if (only !== undefined) query = query.where('family_id', '=', only);
      if (keep) query = query.where('family_id', '!=', keep);
      const rows = await query.returning('family_id').execute();
      return [...new Set(rows.map((row) => row.family_id))];
    },
    revokedSince(since: number) {
      return db
        .selectFrom('sessions')
        .select(['family_id', 'revoked_at'])
        .where('revoked_at', '>=', since)
        .$narrowType<{ revoked_at: number }>()
        .execute();
    },
    deleteExpired(before: number) {
      return db.deleteFrom('sessions').where('expires_at', '<', before).execute();
    },
  };
}
