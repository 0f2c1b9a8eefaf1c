import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Kysely, Migration, MigrationProvider } from 'kysely';
import { MODULE_EXTENSION } from '../server-files.ts';
import type { Dialect } from './dialect.ts';

const FOLDER = path.join(import.meta.dirname, 'migrations');

/**
 * `NNNN-name.ts` (or `.js`, built into dist/): the file's stem is the migration's name, which once
 * released never changes.
 */
const MIGRATION_FILE = new RegExp(`^\\d{4}-[a-z0-9-]+\\${MODULE_EXTENSION}$`);

type MigrationModule = { up(db: Kysely<unknown>, dialect: Dialect): Promise<void> };

async function migrationFiles(): Promise<string[]> {
  return (await fs.readdir(FOLDER)).filter((file) => MIGRATION_FILE.test(file)).sort();
}

/** The names of the migrations this version knows, oldest first: a database that has run another is from a newer version. */
export async function migrationNames(): Promise<string[]> {
  return (await migrationFiles()).map((file) => path.basename(file, MODULE_EXTENSION));
}

/** The migrations of `storage/migrations/`, one file each, in the order of their names. */
export const migrationProvider = (dialect: Dialect): MigrationProvider => ({
  async getMigrations() {
    const files = await migrationFiles();
    const migrations = await Promise.all(
      files.map(async (file): Promise<[string, Migration]> => {
        const module = (await import(pathToFileURL(path.join(FOLDER, file)).href)) as Partial<MigrationModule>;
        const up = module.up;
        if (typeof up !== 'function') throw new Error(`migration ${file} exports no up()`);
        return [path.basename(file, MODULE_EXTENSION), { up: (db) => up(db, dialect) }];
      }),
    );
    return Object.fromEntries(migrations);
  },
});
