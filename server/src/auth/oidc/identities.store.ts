import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema.ts';

export type IdentityRow = Database['oidc_identities'];

/** Provider accounts linked to users: found by issuer and subject at sign-in, listed and unlinked by their owner. */
export function createIdentitiesStore(db: Kysely<Database>) {
  return {
    find(issuer: string, subject: string) {
      return db
        .selectFrom('oidc_identities')
        .selectAll()
        .where('issuer', '=', issuer)
        .where('subject', '=', subject)
        .executeTakeFirst();
    },
    /** Which providers each user signs in with. */
    issuers() {
      return db.selectFrom('oidc_identities').select(['user_id', 'issuer']).execute();
    },
    /** The user's linked provider accounts, oldest first. */
    ofUser(userId: string) {
      return db
        .selectFrom('oidc_identities')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },
    async insert(row: Omit<IdentityRow, 'id'>): Promise<void> {
      await db
        .insertInto('oidc_identities')
        .values({ id: randomUUID(), ...row })
        .execute();
    },
    async touch(issuer: string, subject: string, at: number): Promise<void> {
      await db
        .updateTable('oidc_identities')
        .set({ last_sign_in_at: at })
        .where('issuer', '=', issuer)
        .where('subject', '=', subject)
        .execute();
    },
    /** Whether the user had the identity; another user's is left alone. */
    async delete(userId: string, id: string): Promise<boolean> {
      const result = await db.deleteFrom('oidc_identities').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
