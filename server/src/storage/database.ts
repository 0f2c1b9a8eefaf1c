import fs from 'node:fs';
import path from 'node:path';
import { Kysely, Migrator, SqliteAdapter, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { CurrentSchemaPostgresDialect } from './current-schema-introspector.ts';
import { migrationProvider } from './migration-provider.ts';
import { nodeSqliteDatabase } from './node-sqlite.ts';
import { pgTypes } from './pg-types.ts';
import type { Database } from './schema.ts';

// Its own module, so that the migrations' provider, which this file imports, need not import this file.
export type { Dialect } from './dialect.ts';

/** The open database; `dialect` is the one fact that picks each feature's database code (services.ts). */
export type Storage = { db: Kysely<Database>; close(): Promise<void> } & (
  | {
      dialect: 'sqlite';
      /** The SQLite file, for code that needs a connection of its own (a long import beside readers). */
      sqliteFile: string;
      postgres: undefined;
    }
  | {
      dialect: 'postgres';
      sqliteFile: undefined;
      /** A pool config for code that needs its own PostgreSQL connection (LISTEN). */
      postgres: pg.PoolConfig;
    }
);

export type StorageOptions = {
  dataDir: string;
  databaseUrl?: string | undefined;
  /** PostgreSQL schema to work in; tests give each file its own. */
  postgresSchema?: string | undefined;
};

/**
 * SQLite changes its schema inside transactions; Kysely assumes it cannot, and would run
 * migrations without one, so that a migration cut short (a failure, a kill) left its first
 * statements done and the next start failing on them. Told otherwise, it runs them in one.
 */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl() {
    return true;
  }
}

class SqliteWithTransactionalDdl extends SqliteDialect {
  override createAdapter() {
    return new TransactionalDdlSqliteAdapter();
  }
}

/** The SQLite database of an installation: one file in its data folder (and, while open, its `-wal` and `-shm`). */
export const sqliteFileIn = (dataDir: string) => path.join(dataDir, 'organiser.sqlite');

export async function openStorage(options: StorageOptions): Promise<Storage> {
  if (options.databaseUrl) {
    const postgres: pg.PoolConfig = {
      connectionString: options.databaseUrl,
      types: pgTypes,
      max: 10,
      ...(options.postgresSchema ? { options: `-c search_path=${options.postgresSchema}` } : {}),
    };
    const pool = new pg.Pool(postgres);
    const db = new Kysely<Database>({ dialect: new CurrentSchemaPostgresDialect({ pool }) });
    return { db, dialect: 'postgres', postgres, sqliteFile: undefined, close: () => db.destroy() };
  }
  fs.mkdirSync(options.dataDir, { recursive: true });
  const sqliteFile = sqliteFileIn(options.dataDir);
  const db = new Kysely<Database>({ dialect: new SqliteWithTransactionalDdl({ database: nodeSqliteDatabase(sqliteFile) }) });
  return { db, dialect: 'sqlite', postgres: undefined, sqliteFile, close: () => db.destroy() };
}

/** Brings the schema up to date; a failed migration stops start with its error. */
export async function migrate(storage: Pick<Storage, 'db' | 'dialect'>): Promise<void> {
  // Kysely looks for its own tables in every schema unless told which: another schema of the same
  // database (another app, or a parallel test) would pass for this one's migration history.
  const schema =
    storage.dialect === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(storage.db)).rows[0]?.schema
      : undefined;
  const migrator = new Migrator({
    db: storage.db,
    provider: migrationProvider(storage.dialect),
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`, { cause: error });
  }
}
