import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import pg from 'pg';
import { BackupError } from './backup.ts';

const run = promisify(execFile);

export type DumpSummary = { file: string; bytes: number; schema: string; serverMajor: number; pgDumpMajor: number };

/** The major version of the `pg_dump` on the PATH, or null when there is none. */
async function pgDumpMajor(): Promise<number | null> {
  try {
    const { stdout } = await run('pg_dump', ['--version']);
    const major = /\)\s*(\d+)/.exec(stdout)?.[1];
    return major ? Number(major) : null;
  } catch {
    return null;
  }
}

/** The server's major version, the schema Organiser works in, and the database's other schemas (pg_dump leaves out its own `pg_*` ones). */
async function serverFacts(databaseUrl: string): Promise<{ major: number; schema: string; others: string[] }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const version = await client.query<{ server_version_num: string }>('show server_version_num');
    const schema = (await client.query<{ schema: string }>('select current_schema() as schema')).rows[0]?.schema ?? 'public';
    const others = await client.query<{ name: string }>(
      "select nspname as name from pg_namespace where nspname <> $1 and nspname <> 'information_schema' and nspname not like 'pg\\_%'",
      [schema],
    );
    return { major: Math.floor(Number(version.rows[0]?.server_version_num) / 10_000), schema, others: others.rows.map((row) => row.name) };
  } finally {
    await client.end();
  }
}

/** A schema's name as a pg_dump pattern that matches it alone: quoted, its quotes doubled. */
const exactly = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Which schemas pg_dump writes. A schema named with `--schema` is written with its definition
 * (`CREATE SCHEMA`); every database has `public` already, and a role that does not own it can
 * neither drop nor create it, so a dump of `public` named that way made the advised pg_restore
 * exit 1 in a new database ("schema "public" already exists") though the data came back. So
 * `public` is dumped as the database less its other schemas, which pg_dump writes without
 * `public`'s definition; any other schema is named, so that a new database gets it.
 */
const schemaSelection = (schema: string, others: string[]) =>
  schema === 'public' ? others.map((other) => `--exclude-schema=${exactly(other)}`) : [`--schema=${exactly(schema)}`];

/** The URL without its password, which goes to pg_dump through its environment rather than its command line (seen by `ps`). */
function withoutPassword(databaseUrl: string): { url: string; password: string | undefined } {
  const url = new URL(databaseUrl);
  const password = url.password ? decodeURIComponent(url.password) : undefined;
  url.password = '';
  return { url: url.toString(), password };
}

/** How to restore a dump, for the person who asked for one (with the URL left to their shell). */
export function postgresRestoreAdvice(file: string): string {
  return `with PostgreSQL, stop Organiser and restore a backup with pg_restore: pg_restore --clean --if-exists --no-owner --dbname "$DATABASE_URL" ${JSON.stringify(file)}`;
}

/**
 * A PostgreSQL installation is backed up by `pg_dump` (a consistent snapshot of a running
 * database), in its custom format, of the schema Organiser works in. pg_dump refuses a server of
 * a newer major version than its own, so that is checked first and said plainly.
 */
export async function dumpPostgres(databaseUrl: string, target: string): Promise<DumpSummary> {
  const dumpMajor = await pgDumpMajor();
  if (dumpMajor === null) {
    throw new BackupError('pg_dump is not on the PATH: install the PostgreSQL client tools (Debian: apt-get install postgresql-client)');
  }
  const { major, schema, others } = await serverFacts(databaseUrl);
  if (dumpMajor < major) {
    throw new BackupError(`pg_dump ${dumpMajor} cannot dump PostgreSQL ${major}: install pg_dump ${major} or newer (postgresql-client-${major})`);
  }
  const partial = `${target}.partial-${process.pid}`;
  const { url, password } = withoutPassword(databaseUrl);
  try {
    await run('pg_dump', ['--format=custom', '--no-owner', ...schemaSelection(schema, others), `--file=${partial}`, `--dbname=${url}`], {
      env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
    }).catch((error: { stderr?: string; message: string }) => {
      const reason = (error.stderr ?? error.message).trim().split('\n')[0];
      throw new BackupError(`pg_dump failed: ${reason}`);
    });
    fs.renameSync(partial, target);
    return { file: target, bytes: fs.statSync(target).size, schema, serverMajor: major, pgDumpMajor: dumpMajor };
  } finally {
    fs.rmSync(partial, { force: true });
  }
}
