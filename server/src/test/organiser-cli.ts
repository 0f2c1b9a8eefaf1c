import { spawn } from 'node:child_process';
import path from 'node:path';
import type { TestDatabase } from './test-app.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');

export type CliResult = { code: number | null; stdout: string; stderr: string };

/**
 * `npm run organiser -- …` as a person runs it: its own process, on the environment given (and
 * no database URL but the one given), with `stdin` piped in when given.
 */
export function runOrganiserCli(args: string[], env: Record<string, string>, { stdin = '' }: { stdin?: string } = {}): Promise<CliResult> {
  const child = spawn(process.execPath, ['server/src/cli/organiser.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'warn', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  child.stdin.end(stdin);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The environment `npm start` would have for this test database: its data folder, and its PostgreSQL schema in the URL. */
export function installationEnv(database: TestDatabase): Record<string, string> {
  return {
    DATA_DIR: database.dataDir,
    ...(database.databaseUrl
      ? { DATABASE_URL: `${database.databaseUrl}?options=${encodeURIComponent(`-c search_path=${database.postgresSchema}`)}` }
      : {}),
  };
}
