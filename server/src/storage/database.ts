import fs from 'node:fs';
import path from 'node:path';
import { Kysely, Migrator, PostgresDialect, sql, SqliteDialect } from 'kysely';
import pg from 'pg';
import { migrationProvider } from './migrations.ts';
import { nodeSqliteDatabase } from './node-sqlite.ts';
import type { Database } from './schema.ts';

export type Dialect = 'sqlite' | 'postgres';

export type Storage = {
  db: Kysely<Database>;
  dialect: Dialect;
  /** A pool config for code that needs its own PostgreSQL connection (LISTEN). */
  postgres: pg.PoolConfig | undefined;
  /** The SQLite file, for code that needs a connection of its own (a long import beside readers). */
  sqliteFile: string | undefined;
  close(): Promise<void>;
};

export type StorageOptions = {
  dataDir: string;
  databaseUrl?: string | undefined;
  /** PostgreSQL schema to work in; tests give each file its own. */
  postgresSchema?: string | undefined;
};

// BIGINT columns hold epoch milliseconds, well inside Number's exact range.
const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 ? Number : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

export async function openStorage(options: StorageOptions): Promise<Storage> {
  if (options.databaseUrl) {
    const postgres: pg.PoolConfig = {
      connectionString: options.databaseUrl,
      types: pgTypes,
      max: 10,
      ...(options.postgresSchema ? { options: `-c search_path=${options.postgresSchema}` } : {}),
    };
    const pool = new pg.Pool(postgres);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', postgres, sqliteFile: undefined, close: () => db.destroy() };
  }
  fs.mkdirSync(options.dataDir, { recursive: true });
  const sqliteFile = path.join(options.dataDir, 'organiser.sqlite');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: nodeSqliteDatabase(sqliteFile) }) });
  return { db, dialect: 'sqlite', postgres: undefined, sqliteFile, close: () => db.destroy() };
}

/** Brings the schema up to date; a failed migration stops start with its error. */
export async function migrate(storage: Pick<Storage, 'db' | 'dialect'>): Promise<void> {
  // Kysely looks for its own tables in every schema it can see; pinned to ours, a test schema is not
  // taken for migrated because another schema (another test file's) already is.
  const schema =
    storage.dialect === 'postgres'
      ? (await sql<{ name: string }>`select current_schema() as name`.execute(storage.db)).rows[0]?.name
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
