import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, openTestStorage } from '../test/test-app.ts';
import type { Storage } from './database.ts';
import { checkpointInBackground } from './wal-checkpoints.ts';

const PAGE = 4096;

describe('checkpoints on a thread of their own', () => {
  let storage: Storage & { dialect: 'sqlite' };
  let drop: () => Promise<void>;
  let open: boolean;
  const warnings: string[] = [];
  const log = { warn: (...args: unknown[]) => void warnings.push(String(args.at(-1))) };

  beforeEach(async () => {
    const database = await createTestDatabase('sqlite');
    drop = database.drop;
    storage = (await openTestStorage(database)) as Storage & { dialect: 'sqlite' };
    open = true;
    await sql`create table filler (bytes blob not null)`.execute(storage.db);
    warnings.length = 0;
  });
  afterEach(async () => {
    if (open) await storage.close();
    await drop();
  });

  const autocheckpoint = async () => (await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(storage.db)).rows[0]!.wal_autocheckpoint;
  /** Some 3,000 pages, three times what makes SQLite's committing connection checkpoint. */
  const fill = async () => {
    for (let round = 0; round < 6; round++) {
      await sql`insert into filler (bytes) with recursive n(i) as (select 1 union all select i + 1 from n where i < 500) select randomblob(${PAGE}) from n`.execute(storage.db);
    }
  };
  async function until(condition: () => boolean | Promise<boolean>, what: string) {
    for (const deadline = Date.now() + 5000; !(await condition()); await sleep(20)) {
      if (Date.now() > deadline) throw new Error(`not within 5 s: ${what}`);
    }
  }

  it('copies the log into the database file while the server connection never checkpoints', async () => {
    const checkpoints = await checkpointInBackground(storage.db, storage.sqliteFile, log);
    expect(await autocheckpoint()).toBe(0);
    await fill();
    await until(() => fs.statSync(storage.sqliteFile).size > 2500 * PAGE, 'the database file holds the rows written');
    await checkpoints.stop();
    expect(warnings).toEqual([]);
  });

  it('gives the checkpoints back to the connection when the thread stops unasked', async () => {
    const checkpoints = await checkpointInBackground(storage.db, storage.sqliteFile, log);
    await checkpoints.thread.terminate();
    await until(async () => (await autocheckpoint()) === 1000, 'the connection checkpoints again');
    expect(warnings).toEqual(['the checkpointing thread stopped; the database connection checkpoints again']);
  });

  it('closes its connection when stopped, so the server connection is the last and removes the log', async () => {
    const checkpoints = await checkpointInBackground(storage.db, storage.sqliteFile, log);
    await fill();
    await checkpoints.stop();
    await storage.close();
    open = false;
    expect(fs.existsSync(`${storage.sqliteFile}-wal`)).toBe(false);
  });
});
