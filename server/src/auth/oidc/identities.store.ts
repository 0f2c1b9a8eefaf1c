import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema.ts';

export type IdentityRow = Database['oidc_identities'];

/** Provider accounts linked to users, found by issuer and subject. */
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
    async insert(row: IdentityRow): Promise<void> {
      await db.insertInto('oidc_identities').values(row).execute();
    },
    async touch(issuer: string, subject: string, at: number): Promise<void> {
      await db
        .updateTable('oidc_identities')
        .set({ last_sign_in_at: at })
        .where('issuer', '=', issuer)
        .where('subject', '=', subject)
        .execute();
    },
  };
}
