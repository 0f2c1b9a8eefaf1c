import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BookResults, IndexUploadReply } from '../../contract/books.ts';
import { MAPPED_BYTES } from './books/word-index/growable.ts';
import { multipart } from './test/multipart.ts';
import { BUILT_ENTRY, SERVER_ENVIRONMENT, SERVER_NODE_FLAGS, startServerProcess } from './test/server-process.ts';
import { signUp } from './test/server-accounts.ts';

const ROOT = path.join(import.meta.dirname, '../..');

describe('npm start', () => {
  it('gives Node the environment and flags the tests and benchmarks run the server with, on the built server', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const environment = Object.entries(SERVER_ENVIRONMENT).map(([name, value]) => `${name}=${value}`);
    expect(manifest.scripts.start).toMatch(/^npm run build --silent && /);
    expect(manifest.scripts.start).toContain(`${environment.join(' ')} node ${SERVER_NODE_FLAGS.join(' ')} ${BUILT_ENTRY}`);
  });

  it("maps on their own the blocks from the size the word index's build grows its arrays to", () => {
    expect(SERVER_ENVIRONMENT.GLIBC_TUNABLES.split(':')).toContain(`glibc.malloc.mmap_threshold=${MAPPED_BYTES}`);
  });

  it('runs the built server: its migrations, its threads (checkpoints, the catalogue writer, the word index) and its files', { timeout: 60_000 }, async () => {
    const build = spawnSync('npm', ['run', '--silent', 'build:server'], { cwd: ROOT, encoding: 'utf8' });
    expect(build.status, build.stderr).toBe(0);
    expect(fs.existsSync(path.join(ROOT, BUILT_ENTRY))).toBe(true);
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
      const clientBuilt = fs.existsSync(path.join(ROOT, 'web/dist/index.html'));
      expect((await fetch(`${server.baseUrl}/`)).status).toBe(clientBuilt ? 200 : 503);
      expect(server.logs()).not.toMatch(/failed|error/i);
    } finally {
      await server.stop();
    }
  });
});
