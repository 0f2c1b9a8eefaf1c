import { Migrator, sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, openTestStorage, testDialects } from '../test/test-app.ts';
import { migrate, openStorage, type Storage } from './database.ts';
import { migrationProvider } from './migration-provider.ts';

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
    disabled_at: null,
    password_change_required: 0,
  });

  it('migrates again without change', async () => {
    await migrate(storage);
    const done = await storage.db.selectFrom('kysely_migration' as never).select('name' as never).orderBy('name' as never).execute();
    const defined = Object.keys(await migrationProvider(dialect).getMigrations());
    expect(done.map((row) => (row as { name: string }).name)).toEqual(defined);
  });

  it.runIf(dialect === 'postgres')('migrates a fresh schema beside another schema that is already migrated', async () => {
    const other = await createTestDatabase(dialect);
    const fresh = await openStorage(other);
    try {
      await migrate(fresh);
      const users = await fresh.db.selectFrom('users').select('id').execute();
      expect(users).toEqual([]);
    } finally {
      await fresh.close();
      await other.drop();
    }
  });

  it.runIf(dialect === 'postgres')('migrates while other schemas of the database come and go', async () => {
    // Kysely's own introspection read every schema and failed on one dropped while it ran, as a
    // parallel test file's is: "schema … does not exist". It must see only the schema we work in.
    const neighbour = await createTestDatabase(dialect);
    const neighbourStorage = await openTestStorage(neighbour);
    try {
      const tables = await storage.db.introspection.getTables();
      const schemas = new Set(tables.map((table) => table.schema));
      const [current] = (await sql<{ schema: string }>`select current_schema() as schema`.execute(storage.db)).rows;
      expect([...schemas]).toEqual([current!.schema]);
      expect(tables.map((table) => table.name)).toContain('users');

      const churn = Array.from({ length: 20 }, async (_, i) => {
        const name = sql.id(`${neighbour.postgresSchema}_churn_${i}`);
        await sql`create schema ${name}`.execute(neighbourStorage.db);
        await sql`create table ${name}.t (id int)`.execute(neighbourStorage.db);
        await sql`drop schema ${name} cascade`.execute(neighbourStorage.db);
      });
      await Promise.all([...churn, ...Array.from({ length: 20 }, () => migrate(storage))]);
    } finally {
      await neighbourStorage.close();
      await neighbour.drop();
    }
  });

  it('counts the title words of books loaded before 0006, by which they rank', async () => {
    const database = await createTestDatabase(dialect);
    const old = await openStorage(database);
    try {
      const migrator = new Migrator({
        db: old.db,
        provider: migrationProvider(dialect),
        ...(database.postgresSchema ? { migrationTableSchema: database.postgresSchema } : {}),
      });
      expect((await migrator.migrateTo('0002-books')).error).toBeUndefined();
      const search = dialect === 'sqlite' ? sql`` : sql`, search`;
      const searchValue = dialect === 'sqlite' ? sql`` : sql`, ''`;
      await sql`insert into books (id, title, author, identifier, publisher, path, formats, format_mask ${search})
        values ('7', 'Les Misérables, tome I', 'Victor Hugo', '', '', 'a.epub', '["a.epub"]', 2 ${searchValue})`.execute(old.db);
      await migrate(old);
      const row = await old.db.selectFrom('books').select(['id', sql<number>`title_words`.as('words')]).executeTakeFirstOrThrow();
      expect(row).toEqual({ id: '7', words: 4 });
    } finally {
      await old.close();
      await database.drop();
    }
  });

  it('gives each provider account linked before 0017 an id of its own, and keeps issuer and subject unique', async () => {
    const database = await createTestDatabase(dialect);
    const old = await openStorage(database);
    try {
      const migrator = new Migrator({
        db: old.db,
        provider: migrationProvider(dialect),
        ...(database.postgresSchema ? { migrationTableSchema: database.postgresSchema } : {}),
      });
      expect((await migrator.migrateTo('0016-app-passwords')).error).toBeUndefined();
      await sql`insert into users (id, email, display_name, created_at, updated_at) values ('u1', 'a@example.org', 'A', 1, 1)`.execute(old.db);
      await sql`insert into oidc_identities (issuer, subject, user_id, created_at, last_sign_in_at)
        values ('https://accounts.google.com', 's1', 'u1', 5, 6), ('https://id.example.org', 's1', 'u1', 7, 8)`.execute(old.db);
      await migrate(old);
      const rows = await old.db.selectFrom('oidc_identities').selectAll().orderBy('created_at').execute();
      expect(rows).toEqual([
        { id: expect.any(String), issuer: 'https://accounts.google.com', subject: 's1', user_id: 'u1', created_at: 5, last_sign_in_at: 6 },
        { id: expect.any(String), issuer: 'https://id.example.org', subject: 's1', user_id: 'u1', created_at: 7, last_sign_in_at: 8 },
      ]);
      expect(rows[0]!.id).not.toBe(rows[1]!.id);
      const again = { id: 'another', issuer: 'https://id.example.org', subject: 's1', user_id: 'u1', created_at: 9, last_sign_in_at: 9 };
      await expect(old.db.insertInto('oidc_identities').values(again).execute()).rejects.toThrow();
    } finally {
      await old.close();
      await database.drop();
    }
  });

  it('leaves nothing of a migration that fails halfway', async () => {
    const failing = new Migrator({
      db: storage.db,
      ...(dialect === 'postgres' ? { migrationTableSchema: (await sql<{ s: string }>`select current_schema() as s`.execute(storage.db)).rows[0]!.s } : {}),
      provider: {
        getMigrations: async () => ({
          ...(await migrationProvider(dialect).getMigrations()),
          '9999-half-done': {
            async up(db) {
              await sql`create table half_done (id integer)`.execute(db);
              await sql`alter table books add column half_done integer`.execute(db);
              throw new Error('cut short');
            },
          },
        }),
      },
    });
    const { error } = await failing.migrateToLatest();
    expect(String(error)).toContain('cut short');
    const tables = await storage.db.introspection.getTables();
    expect(tables.map((table) => table.name)).not.toContain('half_done');
    expect(tables.find((table) => table.name === 'books')?.columns.map((column) => column.name)).not.toContain('half_done');
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
