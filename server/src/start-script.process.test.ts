import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { BookResults, IndexUploadReply } from '../../contract/books.ts';
import { isBuilt, sourceStamp, STAMP_FILE } from '../../scripts/build-stamp.ts';
import { multipart } from './test/multipart.ts';
import { BUILT_ENTRY, freePort, startServerProcess } from './test/server-process.ts';
import { signUp } from './test/server-accounts.ts';

const ROOT = path.join(import.meta.dirname, '../..');
const scripts = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

/** What `npm ci` does after installing (`prepare`): builds the tree unless its build is of the sources as they are. */
function buildIfStale() {
  const build = spawnSync(process.execPath, ['scripts/build.ts', '--if-stale'], { cwd: ROOT, encoding: 'utf8' });
  expect(build.status, build.stderr).toBe(0);
}

/** The files a build writes last, with their times of change. */
const buildTimes = () => [STAMP_FILE, BUILT_ENTRY, 'web/dist/index.html'].map((file) => fs.statSync(path.join(ROOT, file)).mtimeMs);

describe('npm start', () => {
  it('runs Node, with no option, on the built server', () => {
    expect(scripts.start).toBe(`node ${BUILT_ENTRY}`);
  });

  it('builds at install and before a start, when the build is not of the sources as they are', () => {
    expect(scripts.prepare).toBe('node scripts/build.ts --if-stale');
    expect(scripts.prestart).toBe(scripts.prepare);
  });

  it('on a built tree answers /api/health within seconds, building nothing', { timeout: 300_000 }, async () => {
    buildIfStale();
    const built = buildTimes();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'organiser-start-'));
    const port = await freePort();
    const startedAt = Date.now();
    // In a process group of its own, so that npm and the server it started end together.
    const npm = spawn('npm', ['start'], {
      cwd: ROOT,
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    npm.stdout.on('data', (chunk) => (output += chunk));
    npm.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise((resolve) => npm.once('exit', resolve));
    try {
      // The budget is 5 s; a wide margin, as the machine may be busy.
      while (!(await fetch(`http://127.0.0.1:${port}/api/health`).then((reply) => reply.ok, () => false))) {
        expect(npm.exitCode, output).toBeNull();
        expect(Date.now() - startedAt, output).toBeLessThan(30_000);
        await sleep(100);
      }
      expect(output).not.toContain('Building');
      expect(buildTimes()).toEqual(built);
    } finally {
      process.kill(-npm.pid!, 'SIGTERM');
      await exited;
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('runs the built server: its migrations, its threads (checkpoints, the catalogue writer, the word index) and its files', { timeout: 300_000 }, async () => {
    buildIfStale();
    // No built module names a module by its source: a thread started from one would not start.
    const built = fs.readdirSync(path.join(ROOT, 'dist'), { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.js'));
    const namingSources = built.filter((file) => /['"`]\.{1,2}\/[^'"`]*\.ts['"`]/.test(fs.readFileSync(path.join(ROOT, 'dist', file), 'utf8')));
    expect(namingSources).toEqual([]);
    const server = await startServerProcess({}, { built: true });
    try {
      expect(fs.readFileSync(`/proc/${server.pid}/cmdline`, 'utf8')).toContain(BUILT_ENTRY);
      const headers = { authorization: `Bearer ${(await signUp(server.baseUrl, { email: 'built@example.org', displayName: 'Built' })).idToken}` };
      const books = JSON.stringify([{ id: 1, title: 'The built server' }, { id: 2, title: 'Another book' }]);
      const body = multipart([['name', 'replace'], ['file', Buffer.from(books), 'index']]);
      const loaded = await fetch(`${server.baseUrl}/api/books/index`, { method: 'POST', headers: { ...body.headers, ...headers }, body: body.payload });
      expect(IndexUploadReply.parse(await loaded.json())).toMatchObject({ total_count: 2, error_count: 0 });
      // The word index's building thread, then a searching thread, answer from the built modules.
      for (let ready = false; !ready; await new Promise((resolve) => setTimeout(resolve, 100))) {
        const health = (await (await fetch(`${server.baseUrl}/api/health`)).json()) as { search_index?: { state: string; books?: number } };
        expect(health.search_index?.state).not.toBe('failed');
        ready = health.search_index?.state === 'ready' && health.search_index.books === 2;
      }
      const found = BookResults.parse(await (await fetch(`${server.baseUrl}/api/books?keys=built`, { headers })).json());
      expect(found.books.map((book) => book.title)).toEqual(['The built server']);
      // The client's pages come from web/dist, found from dist/ as from the sources.
      expect((await fetch(`${server.baseUrl}/`, { headers: { accept: 'text/html' } })).status).toBe(200);
      expect(server.logs()).not.toMatch(/failed|error/i);
    } finally {
      await server.stop();
    }
  });
});

describe('the build stamp', () => {
  /** A tree with a source, a test and a finished build of them. */
  function builtTree() {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'organiser-stamp-'));
    const write = (file: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), text);
    };
    write('server/src/main.ts', 'main');
    write('server/src/main.test.ts', 'a test');
    write('web/src/app.tsx', 'app');
    write('dist/server/src/main.js', 'built');
    write('web/dist/index.html', 'built');
    write(STAMP_FILE, sourceStamp(root));
    return { root, write };
  }

  it('holds while the sources are as built, and not once one is changed, added or removed', () => {
    const cases: Array<(tree: ReturnType<typeof builtTree>) => void> = [
      ({ write }) => write('server/src/main.ts', 'changed'),
      ({ write }) => write('web/src/new.ts', 'new'),
      ({ root }) => fs.rmSync(path.join(root, 'web/src/app.tsx')),
      ({ write }) => write('package-lock.json', '{}'),
      ({ root }) => fs.rmSync(path.join(root, 'web/dist/index.html')),
    ];
    for (const change of cases) {
      const tree = builtTree();
      try {
        expect(isBuilt(tree.root)).toBe(true);
        change(tree);
        expect(isBuilt(tree.root), String(change)).toBe(false);
      } finally {
        fs.rmSync(tree.root, { recursive: true, force: true });
      }
    }
  });

  it('holds when only a test changed, which the build does not read', () => {
    const { root, write } = builtTree();
    try {
      write('server/src/main.test.ts', 'another test');
      expect(isBuilt(root)).toBe(true);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
