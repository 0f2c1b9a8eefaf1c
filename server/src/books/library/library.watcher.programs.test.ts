import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BookResults, CurrentCatalogueLoad } from '../../../../contract/books.ts';
import { HealthReply, type LibraryStatus } from '../../../../contract/health.ts';
import { heldUpload } from '../../test/held-upload.ts';
import { bearer, registerUser, type TestApp, testAppOn, testDialects } from '../../test/test-app.ts';

const FIXTURE_LIBRARY = path.join(import.meta.dirname, '../fixtures/library');
const run = promisify(execFile);

describe.each(testDialects)('the Calibre library folder on %s', (dialect) => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'organiser-library-'));
  const library = path.join(work, 'Calibre Library');
  let t: TestApp;
  let reader: string;
  let admin: string;

  /**
   * Calibre's own command line on the copy, as a user (or Calibre's window) changes a library. It
   * runs in a network namespace of its own: calibredb refuses to run while another calibre program
   * of the same user runs on the machine, and it finds them through sockets of the namespace.
   */
  const calibredb = (...args: string[]) =>
    run('unshare', ['--net', '--map-root-user', 'calibredb', ...args, '--library-path', library], {
      env: { ...process.env, CALIBRE_CONFIG_DIRECTORY: path.join(work, 'calibre-config'), QT_QPA_PLATFORM: 'offscreen', TZ: 'UTC' },
    });

  const health = async (): Promise<LibraryStatus> => {
    const reply = HealthReply.parse((await t.app.inject({ url: '/api/health' })).json());
    if (!reply.library) throw new Error('health shows no library');
    return reply.library;
  };
  /** Polls the health route until the library's status satisfies `done` (the watcher debounces by a second). */
  const healthWhen = async (done: (status: LibraryStatus) => boolean, timeoutMs = 30_000) => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const status = await health();
      if (done(status)) return status;
      if (Date.now() > until) throw new Error(`the library never got there: ${JSON.stringify(status)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const search = async (keys: string) => {
    const response = await t.app.inject({ url: '/api/books', query: { keys, fields: 'title,author,comment,file_path' }, headers: bearer(reader) });
    expect(response.statusCode, response.body).toBe(200);
    return BookResults.parse(response.json());
  };
  /**
   * The last status, with the test's clock moved on, so that a load ending after this reads a later
   * time than every load before it.
   */
  const settledStatus = async () => {
    const status = await healthWhen((s) => s.last_load !== null && !s.loading);
    t.clock.advance(60_000);
    return status;
  };
  const loadedAfter = (before: LibraryStatus) => (status: LibraryStatus) =>
    status.last_load !== null && status.last_load.at > before.last_load!.at && !status.loading;

  beforeAll(async () => {
    fs.cpSync(FIXTURE_LIBRARY, library, { recursive: true });
    // An upload held back while calibredb runs must not be cut as a slow body on a busy machine.
    t = await testAppOn(dialect, { env: { CALIBRE_LIBRARY: library, ALLOW_SIGNUP: 'true' }, httpLimits: { bodyWindowMs: 120_000 } });
    await t.app.ready();
    // The first load's transaction holds SQLite's one writer: a sign-up waits for its end.
    await healthWhen((status) => status.last_load !== null && !status.loading);
    admin = (await registerUser(t.app)).idToken;
    reader = (await registerUser(t.app)).idToken;
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('loads the library when it starts, and says so on the health route', async () => {
    const status = await healthWhen((s) => s.last_load !== null);
    expect(status.last_load).toMatchObject({ status: 'ok', count: 6, error_count: 0, error: null });
    expect(status.last_success_at).toBe(status.last_load!.at);
    expect((await search('')).total).toBe(6);
    expect((await search('Slumberland')).books[0]).toMatchObject({ id: '4', series: 'Little Nemo', has_cover: true });
  });

  it('loads it again after calibredb adds a book, while searches go on answering', async () => {
    const before = await settledStatus();
    let answering = true;
    const totals = new Set<number>();
    const searching = (async () => {
      while (answering) {
        totals.add((await search('')).total);
        // A cached reply comes back without leaving the microtask queue: let timers and I/O run.
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    let after: LibraryStatus;
    try {
      await calibredb('add', '--empty', '--title', 'Der Prozeß', '--authors', 'Franz Kafka', '--tags', 'Roman', '--isbn', '9783100382030');
      // Calibre writes in steps; a load may catch the library before its last one: wait for the book.
      after = await healthWhen((status) => loadedAfter(before)(status) && status.last_load?.count === 7);
    } finally {
      answering = false;
      await searching;
    }
    // A replace from the library: the uploaded books go with it.
    expect(after.last_load).toMatchObject({ status: 'ok', count: 7 });
    expect([...totals].every((total) => total === 6 || total === 7), [...totals].join()).toBe(true);
    // Searches go on from the index before the load until the new one is built; a later step of calibre's may load again.
    await expect
      .poll(async () => (await search('978-3-10-038203-0')).books.map((book) => book.title), { timeout: 30_000 })
      .toEqual(['Der Prozeß']);
  }, 60_000);

  it('loads it again after calibredb set_metadata changes a book', async () => {
    const before = await settledStatus();
    expect((await search('Kosmos')).total).toBe(0);
    await calibredb('set_metadata', '2', '--field', 'tags:Kosmos, Science', '--field', 'rating:3');
    let found = await search('Kosmos');
    for (const until = Date.now() + 30_000; found.total === 0 && Date.now() < until; found = await search('Kosmos')) {
      await healthWhen(loadedAfter(before));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await health()).last_load).toMatchObject({ status: 'ok', count: 7 });
    expect(found.books.map((book) => book.id)).toEqual(['2']);
    expect(found.books[0]).toMatchObject({ tags: ['Kosmos', 'Science'], rating: 3 });
  }, 60_000);

  it('keeps the catalogue as it was when the library cannot be read, shows why, and loads it again once it can', async () => {
    const before = await settledStatus();
    const catalogue = await search('');
    const metadataDb = path.join(library, 'metadata.db');
    const good = fs.readFileSync(metadataDb);
    // Cut short, as a full disk or an interrupted copy leaves it.
    fs.truncateSync(metadataDb, 8192);
    const failed = await healthWhen((status) => loadedAfter(before)(status) && status.last_load?.status === 'failed');
    expect(failed.last_load).toMatchObject({ status: 'failed', count: 0, error: expect.stringMatching(/malformed|not a database|damaged/) });
    expect(failed.last_success_at).toBe(before.last_success_at);
    expect(await search('')).toEqual(catalogue);

    t.clock.advance(60_000);
    fs.writeFileSync(metadataDb, good);
    const again = await healthWhen((status) => loadedAfter(failed)(status) && status.last_load?.status === 'ok');
    expect(again.last_load).toMatchObject({ status: 'ok', count: 7, error: null });
  }, 60_000);

  it('tells its loads’ progress, counted first; a change during an upload waits for the upload, then loads', async () => {
    const before = await settledStatus();
    const current = async () =>
      CurrentCatalogueLoad.parse((await t.app.inject({ url: '/api/books/index/current', headers: bearer(reader) })).json()).load;
    const count = before.last_load!.count;
    expect(await current()).toMatchObject({ kind: 'library', mode: 'replace', phase: 'done', read: count, written: count, errors: 0, estimated_total: count });

    const port = Number(new URL(await t.app.listen({ port: 0, host: '127.0.0.1' })).port);
    const books = Array.from({ length: 200 }, (_, i) => ({ id: `up-${i}`, title: `Uploaded meanwhile ${i}` }));
    const upload = heldUpload(port, admin, Buffer.from(JSON.stringify(books)), 'update');
    const waitFor = async (done: (load: Awaited<ReturnType<typeof current>>) => boolean) => {
      for (const until = Date.now() + 30_000; Date.now() < until; await new Promise((resolve) => setTimeout(resolve, 50))) {
        const load = await current();
        if (done(load)) return load;
      }
      throw new Error('the load never got there');
    };
    const uploading = await waitFor((load) => load?.kind === 'upload' && load.phase === 'receiving');
    await calibredb('set_metadata', '3', '--field', 'tags:Waited');
    // Longer than the watcher's debounce: the library's load has come, found the upload, and waits.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(await current()).toMatchObject({ id: uploading!.id, phase: 'receiving' });
    expect((await health()).last_load!.at).toBe(before.last_load!.at);

    upload.finish();
    expect((await upload.reply).status).toBe(200);
    const after = await healthWhen(loadedAfter(before));
    // A replace from the library: the uploaded books go with it.
    expect(after.last_load).toMatchObject({ status: 'ok', count });
    expect((await search('Waited')).books.map((book) => book.id)).toEqual(['3']);
  }, 60_000);
});
