/**
 * `npm test`: typecheck, lint, build (when stale), the server and client tests, the whole-process and load
 * tests, then the end-to-end tests in Debian's Chromium. `npm run test:fast` (`fast`): the server's
 * unit and app-level tests and the client's, on SQLite alone, for before a commit. Either stops at
 * the first failing step and ends with one "N passed, N failed" line counting every test that ran.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromiumPath } from '../web/e2e/chromium.ts';

type VitestSummary = { numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number };

const totals = { passed: 0, failed: 0, skipped: 0 };
const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), 'organiser-test-report-'));

const fast = process.argv[2] === 'fast';
// The fast tier is SQLite's alone, whatever the developer's shell has set.
const env = { ...process.env };
if (fast) delete env.TEST_DATABASE_URL;

function run(title: string, command: string, args: string[]): boolean {
  console.log(`\n▶ ${title}`);
  const result = spawnSync(command, args, { stdio: 'inherit', env });
  return result.status === 0;
}

/** Commands side by side (the cores are two), each one's output printed whole as it ends, so lines do not interleave. */
async function runTogether(title: string, commands: Array<[command: string, args: string[]]>): Promise<boolean> {
  console.log(`\n▶ ${title}`);
  const results = await Promise.all(
    commands.map(
      ([command, args]) =>
        new Promise<boolean>((resolve) => {
          const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
          const output: Buffer[] = [];
          child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
          child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
          child.on('error', (error) => output.push(Buffer.from(`${String(error)}\n`)));
          child.on('close', (code) => {
            process.stdout.write(Buffer.concat(output));
            resolve(code === 0);
          });
        }),
    ),
  );
  return results.every(Boolean);
}

function vitest(title: string, projects: string[]): boolean {
  const report = path.join(reportDir, `${projects.join('-')}.json`);
  const ok = run(title, 'vitest', [
    'run',
    ...projects.flatMap((name) => ['--project', name]),
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
  ]);
  if (fs.existsSync(report)) {
    const summary = JSON.parse(fs.readFileSync(report, 'utf8')) as VitestSummary;
    totals.passed += summary.numPassedTests;
    totals.failed += summary.numFailedTests;
    totals.skipped += summary.numPendingTests + summary.numTodoTests;
  } else if (!ok) {
    totals.failed += 1;
  }
  return ok;
}

function finish(ok: boolean): never {
  console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
  fs.rmSync(reportDir, { recursive: true, force: true });
  process.exit(ok ? 0 : 1);
}

const fastSteps: Array<() => boolean | Promise<boolean>> = [() => vitest('server and client tests, SQLite', ['server', 'web'])];

const fullSteps: Array<() => boolean | Promise<boolean>> = [
  () =>
    runTogether('typecheck and lint', [
      ['npm', ['run', '--silent', 'typecheck']],
      ['npm', ['run', '--silent', 'lint']],
    ]),
  // Built at install (`npm ci`); built again only when the sources changed since.
  () => run('build the web client and the server', process.execPath, ['scripts/build.ts', '--if-stale']),
  () => vitest('server and client tests', ['server', 'web']),
  () => vitest('whole-process tests and tests that drive other programs', ['process', 'programs']),
  () => vitest('health under attack, one file at a time', ['load']),
  () => {
    const browser = chromiumPath();
    if (!fs.existsSync(browser)) {
      if (process.env.CI) {
        console.error(`\n✗ end-to-end tests need Chromium at ${browser} in CI (install Debian's chromium)`);
        return false;
      }
      console.log(`\n▶ end-to-end tests: skipped, no Chromium at ${browser} (apt-get install chromium, or set CHROMIUM_PATH)`);
      return true;
    }
    return vitest('end-to-end tests in Chromium', ['e2e']);
  },
];

for (const step of fast ? fastSteps : fullSteps) {
  if (!(await step())) {
    console.error('\n✗ npm test stopped at the step above');
    finish(false);
  }
}
if (!env.TEST_DATABASE_URL) {
  console.log('\nPostgreSQL store tests skipped: set TEST_DATABASE_URL=postgres://… to run them too.');
}
finish(totals.failed === 0);
