import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.ts';

export type SessionRow = Database['sessions'];

/** Refresh-token rows: one family per sign-in, one row per rotation. */
export function createSessionsStore(db: Kysely<Database>) {
  return {
    insert(row: SessionRow) {
      return db.insertInto('sessions').values(row).execute();
    },
    findByHash(tokenHash: string) {
      return db.selectFrom('sessions').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
    },
    /** True when this call rotated the token; false when another request rotated it first. */
    async markRotated(id: string, at: number): Promise<boolean> {
      const result = await db
        .updateTable('sessions')
        .set({ rotated_at: at })
        .where('id', '=', id)
        .where('rotated_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    revokeFamily(familyId: string, at: number) {
      return db
        .updateTable('sessions')
        .set({ revoked_at: at })
        .where('family_id', '=', familyId)
        .where('revoked_at', 'is', null)
        .execute();
    },
    deleteExpired(before: number) {
      return db.deleteFrom('sessions').where('expires_at', '<', before).execute();
    },
  };
}
