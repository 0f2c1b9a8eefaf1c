import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { sqliteFileIn } from './database.ts';
import { migrationNames } from './migration-provider.ts';

/** A backup or restore refused or failed, with a message for the person who asked for it. */
export class BackupError extends Error {
  override name = 'BackupError';
}

/** What a database file holds: enough to tell a person which backup this is. */
export type DatabaseSummary = { file: string; bytes: number; latestMigration: string; users: number };

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

function startsAsSqlite(file: string): boolean {
  const header = Buffer.alloc(SQLITE_HEADER.length);
  const fd = fs.openSync(file, 'r');
  try {
    return fs.readSync(fd, header, 0, header.length, 0) === header.length && header.equals(SQLITE_HEADER);
  } finally {
    fs.closeSync(fd);
  }
}

function fsyncPath(target: string): void {
  const fd = fs.openSync(target, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Refuses a file this version cannot run: not SQLite, damaged, without Organiser's migration
 * history, or with a migration this version does not know (made by a newer version). `shown` is
 * the name the person gave, for the messages. The file is opened to write (a WAL header needs
 * it), so it must be a copy the caller owns.
 */
export async function inspectDatabaseFile(file: string, shown = file): Promise<DatabaseSummary> {
  if (!startsAsSqlite(file)) throw new BackupError(`${shown} is not an Organiser database (not an SQLite file)`);
  const known = await migrationNames();
  const db = new DatabaseSync(file);
  try {
    const check = db.prepare('PRAGMA quick_check').get() as { quick_check: string } | undefined;
    if (check?.quick_check !== 'ok') throw new BackupError(`${shown} is damaged (${check?.quick_check ?? 'no answer'})`);
    const history = db.prepare("select 1 from sqlite_master where type = 'table' and name = 'kysely_migration'").get();
    const applied = history
      ? (db.prepare('select name from kysely_migration order by name').all() as { name: string }[]).map((row) => row.name)
      : [];
    if (!applied.includes(known[0] ?? '')) throw new BackupError(`${shown} is not an Organiser database (no Organiser migration history)`);
    const unknown = applied.filter((name) => !known.includes(name));
    if (unknown.length > 0) {
      throw new BackupError(
        `${shown} is from a newer version of Organiser (its migration ${unknown.at(-1)} is unknown to this one); upgrade Organiser before restoring it`,
      );
    }
    const users = db.prepare('select count(*) as count from users').get() as { count: number };
    return { file, bytes: fs.statSync(file).size, latestMigration: applied.at(-1) ?? '', users: users.count };
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError(`${shown} cannot be read as an Organiser database: ${(error as Error).message}`);
  } finally {
    db.close();
  }
}

/**
 * Copies the installation's SQLite database to `target` while the server may be running: `VACUUM
 * INTO` reads it in one transaction, so the copy is the database at one moment, whatever is
 * written meanwhile (the online backup API would start over at each write of a busy server). The
 * copy is checked and made a plain one-file database before it takes the target's name.
 */
export async function backupSqlite(dataDir: string, target: string): Promise<DatabaseSummary> {
  const source = sqliteFileIn(dataDir);
  if (!fs.existsSync(source)) throw new BackupError(`there is no database at ${source} (DATA_DIR) to back up`);
  const partial = `${target}.partial-${process.pid}`;
  fs.rmSync(partial, { force: true });
  try {
    const live = new DatabaseSync(source);
    try {
      live.exec('PRAGMA busy_timeout = 5000');
      live.prepare('VACUUM INTO ?').run(partial);
    } finally {
      live.close();
    }
    const copy = new DatabaseSync(partial);
    copy.exec('PRAGMA journal_mode = DELETE');
    copy.close();
    const summary = await inspectDatabaseFile(partial, source);
    fsyncPath(partial);
    fs.renameSync(partial, target);
    fsyncPath(path.dirname(target));
    return { ...summary, file: target };
  } finally {
    fs.rmSync(partial, { force: true });
  }
}

/**
 * Refuses when anything has the database open. Every connection to a WAL database holds a shared
 * lock on it for as long as it is open, and the lock goes with its process, even one killed: so
 * an exclusive lock granted here means no server runs on this folder, without a pid file that a
 * crash would leave behind. Closing this connection, the last one, folds the WAL into the file.
 */
const SQLITE_BUSY = 5;

function assertNotInUse(databaseFile: string): void {
  if (!fs.existsSync(databaseFile)) return;
  const probe = new DatabaseSync(databaseFile);
  try {
    probe.exec('PRAGMA busy_timeout = 0');
    probe.exec('PRAGMA locking_mode = EXCLUSIVE');
    probe.exec('BEGIN EXCLUSIVE');
    probe.exec('COMMIT');
  } catch (error) {
    if ((error as { errcode?: number }).errcode === SQLITE_BUSY) {
      throw new BackupError(`${databaseFile} is in use: stop the Organiser server on this data folder before restoring`);
    }
    throw new BackupError(`${databaseFile} cannot be opened: ${(error as Error).message}`);
  } finally {
    probe.close();
  }
}

/** A second name for the file (no copy, and the database name never goes missing); a copy where links are not allowed. */
function keepAs(file: string, kept: string): void {
  try {
    fs.linkSync(file, kept);
  } catch {
    fs.copyFileSync(file, kept);
  }
}

const stamp = (at: Date) => at.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');

export type RestoreResult = DatabaseSummary & { previous: string | null };

/**
 * Puts the backup `source` in place as the installation's database, for a stopped server: the
 * backup is copied beside the database and checked there, then renamed over it, so that the
 * folder holds the old database or the new one at every moment. The old one is kept beside it
 * (`organiser.sqlite.before-restore-<time>`) and its stale `-wal` and `-shm` are removed, which
 * would otherwise be read as part of the new one.
 */
export async function restoreSqlite(source: string, dataDir: string, at = new Date()): Promise<RestoreResult> {
  if (!fs.existsSync(source) || !fs.statSync(source).isFile()) throw new BackupError(`${source}: no such file`);
  fs.mkdirSync(dataDir, { recursive: true });
  const databaseFile = sqliteFileIn(dataDir);
  const staged = `${databaseFile}.restoring`;
  fs.rmSync(staged, { force: true });
  try {
    fs.copyFileSync(source, staged);
    const summary = await inspectDatabaseFile(staged, source);
    fsyncPath(staged);
    assertNotInUse(databaseFile);
    let previous: string | null = null;
    if (fs.existsSync(databaseFile)) {
      previous = `${databaseFile}.before-restore-${stamp(at)}`;
      keepAs(databaseFile, previous);
    }
    fs.rmSync(`${databaseFile}-wal`, { force: true });
    fs.rmSync(`${databaseFile}-shm`, { force: true });
    fs.renameSync(staged, databaseFile);
    fsyncPath(dataDir);
    return { ...summary, file: databaseFile, previous };
  } finally {
    fs.rmSync(staged, { force: true });
  }
}
