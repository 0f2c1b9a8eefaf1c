import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { AuthReply } from '../../../contract/auth.ts';
import { type AppOptions, buildApp } from '../app.ts';
import type { PasswordCost } from '../auth/passwords.ts';
import { type ManualClock, manualClock } from './manual-clock.ts';
import { followSchedulerRuns } from './scheduler-runs.ts';
import { type Config, loadConfig } from '../config.ts';
import { type Dialect, migrate, openStorage, type Storage } from '../storage/database.ts';

/** Every store test runs on SQLite, and on PostgreSQL too whenever TEST_DATABASE_URL is set. */
export const testDialects: Dialect[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

export type TestDatabase = { dialect: Dialect; dataDir: string; databaseUrl?: string; postgresSchema?: string };

/** A fresh SQLite file, or a fresh PostgreSQL schema, for one test file. */
export async function createTestDatabase(dialect: Dialect): Promise<TestDatabase & { drop(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'organiser-test-'));
  if (dialect === 'sqlite') {
    return { dialect, dataDir, drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
  }
  const databaseUrl = process.env.TEST_DATABASE_URL;
  if (!databaseUrl) throw new Error('TEST_DATABASE_URL is not set');
  const postgresSchema = `test_${randomBytes(6).toString('hex')}`;
  const admin = await openStorage({ dataDir, databaseUrl });
  await sql`create schema ${sql.id(postgresSchema)}`.execute(admin.db);
  return {
    dialect,
    dataDir,
    databaseUrl,
    postgresSchema,
    async drop() {
      await sql`drop schema ${sql.id(postgresSchema)} cascade`.execute(admin.db);
      await admin.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function openTestStorage(database: TestDatabase): Promise<Storage> {
  const storage = await openStorage(database);
  await migrate(storage);
  return storage;
}

export function testConfig(database: TestDatabase, env: Record<string, string> = {}): Config {
  return loadConfig({ DATA_DIR: database.dataDir, DATABASE_URL: database.databaseUrl, LOG_LEVEL: 'silent', ...env });
}

export type TestApp = {
  app: FastifyInstance;
  storage: Storage;
  clock: ManualClock;
  /** Resolves once the notice scheduler has no run under way (tests step the clock with it). */
  settled(): Promise<void>;
  close(): Promise<void>;
};

/**
 * scrypt at 1/32 of the server's memory and a third of its passes: the same code, about 3 ms a
 * hash instead of 0.1 s, which made sign-ups and sign-ins a third of the suite's time. A test of
 * what the cost itself does passes the server's (`PASSWORD_COST`).
 */
export const TEST_PASSWORD_COST: PasswordCost = { N: 2 ** 10, r: 8, p: 1 };

/** The real app on the given database, with a clock the test moves. */
export async function buildTestApp(
  database: TestDatabase,
  {
    env = {},
    clock = manualClock(),
    logger,
    wordIndex = 'wait',
    httpLimits,
    passwordCost = TEST_PASSWORD_COST,
    pushServiceCa,
  }: {
    env?: Record<string, string>;
    clock?: ManualClock;
    logger?: AppOptions['logger'];
    wordIndex?: AppOptions['wordIndex'];
    httpLimits?: AppOptions['httpLimits'];
    passwordCost?: AppOptions['passwordCost'];
    pushServiceCa?: AppOptions['pushServiceCa'];
  } = {},
): Promise<TestApp> {
  const storage = await openTestStorage(database);
  const schedulerRuns = followSchedulerRuns();
  const app = await buildApp({
    config: testConfig(database, env),
    storage,
    clock,
    logger,
    webDist: database.dataDir,
    startSearchWorkers: false,
    wordIndex,
    httpLimits,
    onNoticeRun: schedulerRuns.onRun,
    passwordCost,
    pushServiceCa,
  });
  return {
    app,
    storage,
    clock,
    settled: schedulerRuns.settled,
    async close() {
      await app.close();
      await storage.close();
    },
  };
}

/** The real app on a fresh database of this dialect; closing it drops the database too. */
export async function testAppOn(dialect: Dialect, options: Parameters<typeof buildTestApp>[1] = {}): Promise<TestApp> {
  const database = await createTestDatabase(dialect);
  const t = await buildTestApp(database, options);
  return {
    ...t,
    async close() {
      await t.close();
      await database.drop();
    },
  };
}

let accounts = 0;

/** Registers a user; every field may be given, the rest are made up. */
export async function registerUser(
  app: FastifyInstance,
  fields: Partial<{ email: string; password: string; displayName: string }> = {},
) {
  accounts += 1;
  const body = {
    email: fields.email ?? `user${accounts}@example.org`,
    password: fields.password ?? 'a long enough password',
    displayName: fields.displayName ?? `User ${accounts}`,
  };
  const response = await app.inject({ method: 'POST', url: '/auth/register', payload: body });
  if (response.statusCode !== 200) throw new Error(`register failed: ${response.statusCode} ${response.body}`);
  const cookie = response.cookies.find((c) => c.name === 'organiser_refresh');
  if (!cookie) throw new Error('register set no refresh cookie');
  return { ...AuthReply.parse(response.json()), refreshToken: cookie.value, password: body.password };
}

export const bearer = (idToken: string) => ({ authorization: `Bearer ${idToken}` });
