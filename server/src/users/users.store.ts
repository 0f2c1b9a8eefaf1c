import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.ts';

export type UserRow = Database['users'];

export function createUsersStore(db: Kysely<Database>) {
  return {
    async count(): Promise<number> {
      const row = await db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },
    findById(id: string) {
      return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    },
    /** Every account, oldest first (the command line's list; an installation has a household's accounts, not thousands). */
    all() {
      return db.selectFrom('users').selectAll().orderBy('created_at').orderBy('email').execute();
    },
    findByEmail(email: string) {
      return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
    },
    async insert(row: UserRow): Promise<void> {
      await db.insertInto('users').values(row).execute();
    },
    async setProfile(id: string, profile: Pick<UserRow, 'display_name' | 'email' | 'photo'>, at: number): Promise<void> {
      await db
        .updateTable('users')
        .set({ ...profile, updated_at: at })
        .where('id', '=', id)
        .execute();
    },
    /** A password its owner chose, or (`temporary`) one an administrator set, which its owner must replace at next sign-in. */
    async setPasswordHash(id: string, passwordHash: string, at: number, { temporary = false } = {}): Promise<void> {
      await db
        .updateTable('users')
        .set({ password_hash: passwordHash, password_change_required: temporary ? 1 : 0, updated_at: at })
        .where('id', '=', id)
        .execute();
    },
    async setTimezone(id: string, timezone: string, at: number): Promise<UserRow | undefined> {
      await db.updateTable('users').set({ timezone, updated_at: at }).where('id', '=', id).execute();
      return this.findById(id);
    },
  };
}
export type UsersStore = ReturnType<typeof createUsersStore>;
