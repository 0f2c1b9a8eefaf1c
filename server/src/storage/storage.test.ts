import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, openTestStorage, testDialects } from '../test/test-app.ts';
import { migrate, type Storage } from './database.ts';
import { migrationProvider } from './migrations.ts';

describe.each(testDialects)('storage on %s', (dialect) => {
  let storage: Storage;

  beforeEach(async () => {
    const database = await createTestDatabase(dialect);
    storage = await openTestStorage(database);
    return async () => {
      await storage.close();
      await database.drop();
    };
  });

  const user = (id: string, email: string) => ({
    id,
    email,
    display_name: id,
    photo: null,
    password_hash: null,
    timezone: null,
    is_admin: 0,
    created_at: 1_767_225_600_000,
    updated_at: 1_767_225_600_000,
  });

  it('migrates again without change', async () => {
    await migrate(storage);
    const done = await storage.db.selectFrom('kysely_migration' as never).select('name' as never).execute();
    const known = Object.keys(await migrationProvider(dialect).getMigrations());
    expect(done.map((row) => (row as { name: string }).name).sort()).toEqual(known.sort());
  });

  it('reads back epoch-millisecond times as numbers', async () => {
    await storage.db.insertInto('users').values(user('u1', 'u1@example.org')).execute();
    const row = await storage.db.selectFrom('users').select('created_at').executeTakeFirstOrThrow();
    expect(row.created_at).toBe(1_767_225_600_000);
  });

  it('enforces unique e-mails and deletes a user’s sessions with the user', async () => {
    await storage.db.insertInto('users').values(user('u1', 'u1@example.org')).execute();
    await expect(storage.db.insertInto('users').values(user('u2', 'u1@example.org')).execute()).rejects.toThrow();
    await storage.db
      .insertInto('sessions')
      .values({ id: 's1', family_id: 'f', user_id: 'u1', token_hash: 'h', created_at: 1, expires_at: 2, rotated_at: null, revoked_at: null })
      .execute();
    await storage.db.deleteFrom('users').where('id', '=', 'u1').execute();
    expect(await storage.db.selectFrom('sessions').selectAll().execute()).toEqual([]);
  });

  it.runIf(dialect === 'sqlite')('runs SQLite in WAL mode with foreign keys on', async () => {
    const journal = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(storage.db);
    const keys = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(storage.db);
    expect(journal.rows[0]?.journal_mode).toBe('wal');
    expect(keys.rows[0]?.foreign_keys).toBe(1);
  });
});
