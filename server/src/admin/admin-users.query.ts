import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.ts';

/**
 * Every account with its counts and last use, in one query (correlated counts over the owners'
 * indexes), so that the page costs the same few reads however many accounts there are.
 */
export function createAdminUsersQuery(db: Kysely<Database>) {
  return {
    all() {
      return db
        .selectFrom('users')
        .selectAll('users')
        .select((eb) => [
          eb.selectFrom('bookmarks').select((bookmarks) => bookmarks.fn.countAll<number>().as('n')).whereRef('bookmarks.owner_id', '=', 'users.id').as('bookmarks'),
          eb.selectFrom('tasks').select((tasks) => tasks.fn.countAll<number>().as('n')).whereRef('tasks.owner_id', '=', 'users.id').as('tasks'),
          // A session row is written at each sign-in and each refresh (every 15 minutes of an open page).
          eb.selectFrom('sessions').select((sessions) => sessions.fn.max('sessions.created_at').as('at')).whereRef('sessions.user_id', '=', 'users.id').as('last_seen_at'),
        ])
        .orderBy('users.created_at')
        .orderBy('users.email')
        .execute();
    },
  };
}
