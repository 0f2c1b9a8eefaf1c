import type { Kysely } from 'kysely';
import { BookSearchPreferences } from '../../../contract/books.ts';
import type { Clock } from '../clock.ts';
import type { Database } from '../storage/schema.ts';

/**
 * Each account's book search settings, one row a user. Read through the contract's schema, so that
 * a value written before a field existed reads with that field's default.
 */
export function createBookSearchPreferencesStore(db: Kysely<Database>, clock: Pick<Clock, 'now'>) {
  return {
    async get(userId: string): Promise<BookSearchPreferences> {
      const row = await db.selectFrom('book_search_preferences').select('preferences').where('user_id', '=', userId).executeTakeFirst();
      return BookSearchPreferences.parse(row ? JSON.parse(row.preferences) : {});
    },

    async put(userId: string, preferences: BookSearchPreferences): Promise<BookSearchPreferences> {
      const value = JSON.stringify(preferences);
      const updatedAt = clock.now();
      await db
        .insertInto('book_search_preferences')
        .values({ user_id: userId, preferences: value, updated_at: updatedAt })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ preferences: value, updated_at: updatedAt }))
        .execute();
      return preferences;
    },
  };
}
export type BookSearchPreferencesStore = ReturnType<typeof createBookSearchPreferencesStore>;
