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
    async setPasswordHash(id: string, passwordHash: string, at: number): Promise<void> {
      await db.updateTable('users').set({ password_hash: passwordHash, updated_at: at }).where('id', '=', id).execute();
    },
    async setTimezone(id: string, timezone: string, at: number): Promise<UserRow | undefined> {
      await db.updateTable('users').set({ timezone, updated_at: at }).where('id', '=', id).execute();
      return this.findById(id);
    },
  };
}
export type UsersStore = ReturnType<typeof createUsersStore>;
