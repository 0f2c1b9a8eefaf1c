import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { installationEnv, runOrganiserCli } from '../test/organiser-cli.ts';
import { killHard, startServerProcess } from '../test/server-process.ts';
import { createTestDatabase } from '../test/test-app.ts';
import { sqliteFileIn } from './database.ts';

const run = promisify(execFile);

/** An installation with one administrator, and a backup of it. */
async function installationWithBackup(folder: string) {
  const dataDir = path.join(folder, 'data');
  const created = await runOrganiserCli(['create-admin', '--email', 'kept@example.org', '--name', 'Kept'], { DATA_DIR: dataDir });
  expect(created.code, created.stderr).toBe(0);
  const backup = path.join(folder, 'backup.sqlite');
  const backedUp = await runOrganiserCli(['backup', backup], { DATA_DIR: dataDir });
  expect(backedUp.code, backedUp.stderr).toBe(0);
  expect(backedUp.stdout).toContain(`to ${backup}`);
  return { dataDir, backup };
}

const emailsIn = (databaseFile: string) => {
  const db = new DatabaseSync(databaseFile, { readOnly: true });
  try {
    return (db.prepare('select email from users order by email').all() as { email: string }[]).map((row) => row.email);
  } finally {
    db.close();
  }
};

// Each command is a process of its own, started as a person would start it: seconds each on a busy machine.
const COMMANDS_TIMEOUT = { timeout: 120_000 };

describe('restore on SQLite', COMMANDS_TIMEOUT, () => {
  let folder: string;
  beforeEach(() => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'organiser-restore-'));
  });
  afterEach(() => fs.rmSync(folder, { recursive: true, force: true }));

  it('refuses files that are not an Organiser database, or from a newer version, and changes nothing', async () => {
    const { backup } = await installationWithBackup(folder);
    const target = path.join(folder, 'target');
    const restoreInto = (file: string) => runOrganiserCli(['restore', file], { DATA_DIR: target });

    const text = path.join(folder, 'notes.txt');
    fs.writeFileSync(text, 'not a database at all\n');
    const foreign = path.join(folder, 'foreign.sqlite');
    const other = new DatabaseSync(foreign);
    other.exec("create table kysely_migration (name text primary key, timestamp text); insert into kysely_migration values ('20240101_init', '')");
    other.close();
    const plain = path.join(folder, 'plain.sqlite');
    new DatabaseSync(plain).exec('create table notes (body text)');
    const newer = path.join(folder, 'newer.sqlite');
    fs.copyFileSync(backup, newer);
    new DatabaseSync(newer).exec("insert into kysely_migration (name, timestamp) values ('9999-from-the-future', '')");

    const cases: Array<[string, string]> = [
      [text, `organiser: ${text} is not an Organiser database (not an SQLite file)\n`],
      [plain, `organiser: ${plain} is not an Organiser database (no Organiser migration history)\n`],
      [foreign, `organiser: ${foreign} is not an Organiser database (no Organiser migration history)\n`],
      [
        newer,
        `organiser: ${newer} is from a newer version of Organiser (its migration 9999-from-the-future is unknown to this one); upgrade Organiser before restoring it\n`,
      ],
      [path.join(folder, 'missing.sqlite'), `organiser: ${path.join(folder, 'missing.sqlite')}: no such file\n`],
    ];
    for (const [file, message] of cases) {
      const result = await restoreInto(file);
      expect(result.code, file).toBe(1);
      expect(result.stderr).toBe(message);
    }
    expect(fs.existsSync(target) ? fs.readdirSync(target) : []).toEqual([]);
  });

  it('refuses while a server runs on the data folder; after a kill -9 it replaces the database, keeping the old one', async () => {
    const { dataDir, backup } = await installationWithBackup(folder);
    const server = await startServerProcess({ DATA_DIR: dataDir });
    try {
      const added = await runOrganiserCli(['create-admin', '--email', 'after@example.org', '--name', 'After'], { DATA_DIR: dataDir });
      expect(added.code, added.stderr).toBe(0);

      const refused = await runOrganiserCli(['restore', backup], { DATA_DIR: dataDir });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toBe(
        `organiser: ${sqliteFileIn(dataDir)} is in use: stop the Organiser server on this data folder before restoring\n`,
      );
      expect((await fetch(`${server.baseUrl}/api/health`)).status).toBe(200);
      expect(fs.readdirSync(dataDir).filter((name) => name.includes('restor'))).toEqual([]);

      // A server killed outright leaves its WAL behind, and no lock.
      await killHard(server.child);
      const restored = await runOrganiserCli(['restore', backup], { DATA_DIR: dataDir });
      expect(restored.code, restored.stderr).toBe(0);
      const kept = /kept as (\S+);/.exec(restored.stdout)?.[1];
      expect(kept).toMatch(/organiser\.sqlite\.before-restore-\d{8}T\d{6}Z$/);
      expect(emailsIn(kept!)).toEqual(['after@example.org', 'kept@example.org']);
      expect(emailsIn(sqliteFileIn(dataDir))).toEqual(['kept@example.org']);
      expect(fs.existsSync(`${sqliteFileIn(dataDir)}-wal`)).toBe(false);
      expect(fs.existsSync(`${sqliteFileIn(dataDir)}-shm`)).toBe(false);

      const listed = await runOrganiserCli(['list-users'], { DATA_DIR: dataDir });
      expect(listed.stdout).toContain('kept@example.org');
      expect(listed.stdout).not.toContain('after@example.org');
    } finally {
      await killHard(server.child);
    }
  });

  it('backs up to a file name that exists by replacing it whole, and refuses a data folder without a database', async () => {
    const { dataDir, backup } = await installationWithBackup(folder);
    const again = await runOrganiserCli(['backup', backup], { DATA_DIR: dataDir });
    expect(again.code, again.stderr).toBe(0);
    expect(emailsIn(backup)).toEqual(['kept@example.org']);
    expect(fs.readdirSync(folder).sort()).toEqual(['backup.sqlite', 'data']);

    const empty = path.join(folder, 'empty');
    const nothing = await runOrganiserCli(['backup', path.join(folder, 'none.sqlite')], { DATA_DIR: empty });
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toBe(`organiser: there is no database at ${sqliteFileIn(empty)} (DATA_DIR) to back up\n`);
    expect(fs.existsSync(path.join(folder, 'none.sqlite'))).toBe(false);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('backup on PostgreSQL', COMMANDS_TIMEOUT, () => {
  it('dumps the schema with pg_dump; pg_restore as advised brings it back; restore itself only advises', async () => {
    const database = await createTestDatabase('postgres');
    const env = installationEnv(database);
    const file = path.join(database.dataDir, 'organiser.dump');
    try {
      const created = await runOrganiserCli(['create-admin', '--email', 'pg@example.org', '--name', 'On Postgres'], env);
      expect(created.code, created.stderr).toBe(0);

      const backedUp = await runOrganiserCli(['backup', file], env);
      expect(backedUp.code, backedUp.stderr).toBe(0);
      expect(backedUp.stdout).toContain(`Backed up PostgreSQL schema "${database.postgresSchema}" with pg_dump`);
      expect(backedUp.stdout).toContain('pg_restore --clean --if-exists --no-owner --dbname "$DATABASE_URL"');

      const refused = await runOrganiserCli(['restore', file], env);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/^organiser: with PostgreSQL, stop Organiser and restore a backup with pg_restore: pg_restore .*\n$/);

      await run('psql', [database.databaseUrl!, '-qc', `drop schema "${database.postgresSchema}" cascade`]);
      await run('pg_restore', ['--clean', '--if-exists', '--no-owner', '--dbname', env.DATABASE_URL!, file]);

      const listed = await runOrganiserCli(['list-users'], env);
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout).toMatch(/pg@example\.org\s+On Postgres\s+yes\s+password/);
    } finally {
      await database.drop();
    }
  });

  it('restores a dump of the public schema into a new database with the advised pg_restore, exiting 0, as a role that does not own it', async () => {
    const admin = new URL(process.env.TEST_DATABASE_URL!);
    const name = `organiser_restore_${randomBytes(4).toString('hex')}`;
    const [source, target, role] = [`${name}_from`, `${name}_to`, `${name}_role`];
    const at = (database: string, user = admin.username) => Object.assign(new URL(admin), { pathname: `/${database}`, username: user }).toString();
    const psql = (database: string, command: string) => run('psql', [at(database), '-qc', command]);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'organiser-restore-'));
    try {
      await psql(admin.pathname.slice(1), `create database "${source}"`);
      await psql(admin.pathname.slice(1), `create database "${target}"`);
      // The installation's own role: not a superuser, and not the owner of the new database or of its public schema.
      await psql(admin.pathname.slice(1), `create role "${role}" login`);
      await psql(target, `grant all on schema public to "${role}"`);
      const file = path.join(dataDir, 'organiser.dump');
      const sourceEnv = { DATA_DIR: dataDir, DATABASE_URL: at(source) };
      expect((await runOrganiserCli(['create-admin', '--email', 'public@example.org', '--name', 'In Public'], sourceEnv)).code).toBe(0);
      const backedUp = await runOrganiserCli(['backup', file], sourceEnv);
      expect(backedUp.code, backedUp.stderr).toBe(0);
      expect(backedUp.stdout).toContain('Backed up PostgreSQL schema "public" with pg_dump');

      const restored = await run('pg_restore', ['--clean', '--if-exists', '--no-owner', '--dbname', at(target, role), file]).then(
        () => 0,
        (error: { code: number; stderr: string }) => `exit ${error.code}: ${error.stderr}`,
      );
      expect(restored).toBe(0);
      const listed = await runOrganiserCli(['list-users'], { DATA_DIR: dataDir, DATABASE_URL: at(target, role) });
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout).toMatch(/public@example\.org\s+In Public\s+yes\s+password/);
    } finally {
      for (const database of [source, target]) await psql(admin.pathname.slice(1), `drop database if exists "${database}" with (force)`);
      await psql(admin.pathname.slice(1), `drop role if exists "${role}"`);
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
