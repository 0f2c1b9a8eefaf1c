import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

/**
 * Writes `value` under `key`, replacing what was there. A statement rather than a call, for a
 * connection Kysely does not drive (the SQLite catalogue's loader) to compile and run.
 */
export const settingWrite = (db: Kysely<Database>, key: string, value: string) =>
  db
    .insertInto('settings')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: (eb) => eb.ref('excluded.value') }));

/** Removes `key`; a statement, as `settingWrite` is. */
export const settingDelete = (db: Kysely<Database>, key: string) => db.deleteFrom('settings').where('key', '=', key);

/**
 * The installation's settings (the `settings` table, one value a key), kept in the database so
 * that every server instance on it sees the same ones.
 */
export function settingsStore(db: Kysely<Database>) {
  return {
    /** A reader of one key, its query compiled once: for a value asked before every request. */
    reader(key: string): () => Promise<string | undefined> {
      const query = db.selectFrom('settings').select('value').where('key', '=', key).compile();
      return async () => (await db.executeQuery(query)).rows[0]?.value;
    },

    async write(key: string, value: string): Promise<void> {
      await settingWrite(db, key, value).execute();
    },

    /** Keeps the first value any instance wrote under `key`, and returns the one kept. */
    async writeOnce(key: string, value: string): Promise<string> {
      await db.insertInto('settings').values({ key, value }).onConflict((oc) => oc.column('key').doNothing()).execute();
      const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirstOrThrow();
      return row.value;
    },
  };
}
