/**
 * `npm test`: typecheck, lint, build, server and client tests, then the end-to-end tests in
 * Debian's Chromium. Stops at the first failing step and ends with one "N passed, N failed"
 * line counting every test that ran.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromiumPath } from '../web/e2e/chromium.ts';

type VitestSummary = { numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number };

const totals = { passed: 0, failed: 0, skipped: 0 };
const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), 'organiser-test-report-'));

function run(title: string, command: string, args: string[]): boolean {
  console.log(`\n▶ ${title}`);
  const result = spawnSync(command, args, { stdio: 'inherit', env: process.env });
  return result.status === 0;
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

const steps: Array<() => boolean> = [
  () => run('typecheck', 'npm', ['run', '--silent', 'typecheck']),
  () => run('lint', 'npm', ['run', '--silent', 'lint']),
  () => run('build the web client and the server', 'npm', ['run', '--silent', 'build']),
  () => vitest('server and client tests', ['server', 'web']),
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

for (const step of steps) {
  if (!step()) {
    console.error('\n✗ npm test stopped at the step above');
    finish(false);
  }
}
if (!process.env.TEST_DATABASE_URL) {
  console.log('\nPostgreSQL store tests skipped: set TEST_DATABASE_URL=postgres://… to run them too.');
}
finish(totals.failed === 0);
