import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BookResults, CatalogueLoad, CatalogueLoadBusy, CurrentCatalogueLoad, IndexUploadReply } from '../../../contract/books.ts';
import { emptyCatalogue } from '../test/empty-catalogue.ts';
import { heldUpload as heldUploadOf } from '../test/held-upload.ts';
import { multipart } from '../test/multipart.ts';
import { bearer, buildTestApp, createTestDatabase, registerUser, type TestApp, type TestDatabase, testDialects } from '../test/test-app.ts';

/** A Calibre JSON catalogue of `count` records, every tenth not a book (no id). */
function catalogue(count: number, title: string) {
  const lines = Array.from({ length: count }, (_, i) =>
    i % 10 === 9 ? JSON.stringify({ title: `${title} broken ${i}` }) : JSON.stringify({ id: `${title}-${i}`, title: `${title} number ${i}`, author: 'Someone' }),
  );
  return Buffer.from(`[\n${lines.join(',\n')}\n]\n`);
}

const until = async <T>(probe: () => Promise<T | undefined>, what: string, ms = 60_000): Promise<T> => {
  const end = Date.now() + ms;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

describe.each(testDialects)('catalogue loads on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let reader: string;
  let port: number;
  let database: TestDatabase & { drop(): Promise<void> };

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    t = await buildTestApp(database, { env: { ALLOW_SIGNUP: 'true' } });
    admin = (await registerUser(t.app)).idToken;
    reader = (await registerUser(t.app)).idToken;
    port = Number(new URL(await t.app.listen({ port: 0, host: '127.0.0.1' })).port);
  });
  afterAll(async () => {
    await t.close();
    await database.drop();
  });
  beforeEach(async () => {
    await emptyCatalogue(t.storage);
  });

  const current = async () => CurrentCatalogueLoad.parse((await t.app.inject({ url: '/api/books/index/current', headers: bearer(reader) })).json()).load;
  const search = async (keys: string) =>
    BookResults.parse((await t.app.inject({ url: '/api/books', query: { keys }, headers: bearer(reader) })).json()).total;
  const upload = (file: Buffer, mode: string) => {
    const body = multipart([['name', mode], ['file', file, 'index']]);
    return t.app.inject({ method: 'POST', url: '/api/books/index', ...body, headers: { ...body.headers, ...bearer(admin) } });
  };

  const heldUpload = (file: Buffer, mode: string) => heldUploadOf(port, admin, file, mode);

  it('tells an upload’s progress as it goes: bytes, then records read and written, ending with the importer’s counts', async () => {
    const file = catalogue(60_000, 'Progress');
    const sending = heldUpload(file, 'replace');
    const receiving = await until(async () => {
      const load = await current();
      return load?.phase === 'receiving' && load.bytes > 0 ? load : undefined;
    }, 'the bytes to arrive');
    expect(receiving).toMatchObject({ kind: 'upload', mode: 'replace', read: 0, total_bytes: sending.size });
    expect(receiving.bytes).toBeLessThanOrEqual(file.length);

    sending.finish();
    const seen: CatalogueLoad[] = [];
    await until(async () => {
      const response = await t.app.inject({ url: `/api/books/index/${receiving.id}`, headers: bearer(reader) });
      expect(response.statusCode).toBe(200);
      const load = CatalogueLoad.parse(response.json());
      seen.push(load);
      return load.phase === 'done' ? load : undefined;
    }, 'the load to end');
    const reply = await sending.reply;
    expect(reply.status, reply.body).toBe(200);
    const result = IndexUploadReply.parse(JSON.parse(reply.body));
    expect(result).toMatchObject({ total_count: 60_000, error_count: 6000 });

    const reads = seen.map((load) => load.read);
    expect(reads).toEqual([...reads].sort((a, b) => a - b));
    expect(reads.some((read) => read > 0 && read < 60_000)).toBe(true);
    const estimates = seen.filter((load) => load.phase === 'reading' && load.estimated_total !== null);
    expect(estimates.length).toBeGreaterThan(0);
    // "About": the reader runs ahead of the records by what its buffers hold, less so as it goes.
    expect(estimates.at(-1)!.estimated_total).toBeGreaterThan(60_000 * 0.75);
    expect(estimates.at(-1)!.estimated_total).toBeLessThan(60_000 * 1.25);
    expect(seen.at(-1)).toMatchObject({ phase: 'done', read: 60_000, written: 54_000, errors: 6000, bytes: file.length, estimated_total: 60_000 });
    expect(await current()).toMatchObject({ id: receiving.id, phase: 'done' });
    expect(await search('progress')).toBe(54_000);
    // A guard against a hang: the 60,000 records took over a minute on two cores at a load average of 25.
  }, 300_000);

  it('runs one load at a time: a second answers 409 with the running one’s progress, and goes once it has ended', async () => {
    const sending = heldUpload(catalogue(100, 'First'), 'update');
    const running = await until(async () => ((await current())?.phase === 'receiving' ? await current() : undefined), 'the first load');
    const second = await upload(catalogue(10, 'Second'), 'update');
    expect(second.statusCode).toBe(409);
    const busy = CatalogueLoadBusy.parse(second.json());
    expect(busy).toMatchObject({ statusCode: 409, error: 'Conflict', load: { id: running!.id, phase: 'receiving' } });
    expect(busy.message).toMatch(/running/);
    sending.finish();
    expect((await sending.reply).status).toBe(200);
    const third = await upload(catalogue(10, 'Third'), 'update');
    expect(third.statusCode, third.body).toBe(200);
    expect(await search('second')).toBe(0);
    expect(await search('third')).toBe(9);
  });

  it('cancels a replace while its file arrives when the client goes away, leaving the catalogue whole', async () => {
    expect((await upload(catalogue(50, 'Old'), 'replace')).statusCode).toBe(200);
    const sending = heldUpload(catalogue(5000, 'New'), 'replace');
    const running = await until(async () => ((await current())?.phase === 'receiving' ? await current() : undefined), 'the upload');
    sending.abort();
    const ended = await until(async () => {
      const load = await current();
      return load?.phase === 'cancelled' ? load : undefined;
    }, 'the cancel');
    expect(ended).toMatchObject({ id: running!.id, message: expect.stringMatching(/as it was/) });
    expect(await search('old')).toBe(45);
    expect(await search('new')).toBe(0);
    expect((await upload(catalogue(10, 'After'), 'update')).statusCode).toBe(200);
  });

  it('cancels a replace while it reads when an admin asks, rolling it back; the upload’s reply says so', async () => {
    expect((await upload(catalogue(50, 'Old'), 'replace')).statusCode).toBe(200);
    const sending = heldUpload(catalogue(60_000, 'New'), 'replace');
    sending.finish();
    const reading = await until(async () => {
      const load = await current();
      return load?.phase === 'reading' && load.written > 0 ? load : undefined;
    }, 'the reading phase');
    const refused = await t.app.inject({ method: 'DELETE', url: `/api/books/index/${reading.id}`, headers: bearer(reader) });
    expect(refused.statusCode).toBe(403);
    const cancel = await t.app.inject({ method: 'DELETE', url: `/api/books/index/${reading.id}`, headers: bearer(admin) });
    expect(cancel.statusCode, cancel.body).toBe(200);
    const reply = await sending.reply;
    expect(reply.status).toBe(409);
    expect(JSON.parse(reply.body)).toMatchObject({ statusCode: 409, message: expect.stringMatching(/catalogue is as it was/) });
    const after = CatalogueLoad.parse((await t.app.inject({ url: `/api/books/index/${reading.id}`, headers: bearer(reader) })).json());
    expect(after).toMatchObject({ phase: 'cancelled', message: expect.stringMatching(/as it was/) });
    expect(after.read).toBeLessThan(60_000);
    expect(await search('old')).toBe(45);
    expect(await search('new')).toBe(0);
  });

  // A search reads its page by the books' seqs and identifiers: without statistics of a table a
  // million books just filled, PostgreSQL guessed a tenth of them matched an identifier and chose
  // plans that made a search at 50 connections 10 % slower (docs/postgresql.md).
  it.runIf(dialect === 'postgres')('leaves PostgreSQL the statistics of the books it wrote', async () => {
    expect((await upload(catalogue(2_000, 'Counted'), 'replace')).statusCode).toBe(200);
    const { rows } = await sql<{ analyzed: boolean; columns: number }>`
      select t.last_analyze is not null as analyzed,
             (select count(*) from pg_stats s where s.schemaname = t.schemaname and s.tablename = t.relname and s.attname in ('seq', 'identifier_key')) as columns
      from pg_stat_user_tables t where t.schemaname = current_schema() and t.relname = 'books'`.execute(t.storage.db);
    expect(rows).toEqual([{ analyzed: true, columns: 2 }]);
  });

  it('answers an unknown load with a 404', async () => {
    for (const method of ['GET', 'DELETE'] as const) {
      const response = await t.app.inject({ method, url: '/api/books/index/no-such-load', headers: bearer(admin) });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Catalogue load not found' });
    }
  });

  it('streams each load’s progress to every reader', async () => {
    const events: CatalogueLoad[] = [];
    const stream = await fetch(`http://127.0.0.1:${port}/api/books/index/events`, { headers: bearer(reader) });
    expect(stream.headers.get('content-type')).toMatch(/text\/event-stream/);
    const reader$ = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    const collecting = (async () => {
      let text = '';
      for (;;) {
        const { done, value } = await reader$.read();
        if (done) return;
        text += value;
        for (let end = text.indexOf('\n\n'); end >= 0; end = text.indexOf('\n\n')) {
          const data = text.slice(0, end).split('\n').find((line) => line.startsWith('data: '));
          if (data) events.push(CatalogueLoad.parse(JSON.parse(data.slice(6))));
          text = text.slice(end + 2);
        }
      }
    })();
    expect((await upload(catalogue(20_000, 'Streamed'), 'update')).statusCode).toBe(200);
    await until(async () => (events.at(-1)?.phase === 'done' ? true : undefined), 'the last event');
    await reader$.cancel();
    await collecting.catch(() => {});
    const phases = [...new Set(events.filter((load) => load.read > 0 || load.phase !== 'done').map((load) => load.phase))];
    expect(phases).toEqual(expect.arrayContaining(['receiving', 'reading', 'done']));
    expect(events.at(-1)).toMatchObject({ read: 20_000, written: 18_000, errors: 2000 });
  });

  it.runIf(dialect === 'postgres')('holds the rule across server instances, which see the load and may cancel it', async () => {
    const second = await buildTestApp(database, { env: { ALLOW_SIGNUP: 'true' } });
    try {
      expect((await upload(catalogue(50, 'Old'), 'replace')).statusCode).toBe(200);
      const sending = heldUpload(catalogue(5000, 'New'), 'replace');
      const running = await until(async () => ((await current())?.phase === 'receiving' ? await current() : undefined), 'the upload');
      const elsewhere = async () => CurrentCatalogueLoad.parse((await second.app.inject({ url: '/api/books/index/current', headers: bearer(reader) })).json()).load;
      await until(async () => ((await elsewhere())?.id === running!.id ? true : undefined), 'the other instance to see the load');

      const body = multipart([['name', 'update'], ['file', catalogue(10, 'Second'), 'index']]);
      const refused = await second.app.inject({ method: 'POST', url: '/api/books/index', ...body, headers: { ...body.headers, ...bearer(admin) } });
      expect(refused.statusCode).toBe(409);
      expect(CatalogueLoadBusy.parse(refused.json()).load).toMatchObject({ id: running!.id });

      const cancel = await second.app.inject({ method: 'DELETE', url: `/api/books/index/${running!.id}`, headers: bearer(admin) });
      expect(cancel.statusCode, cancel.body).toBe(200);
      await until(async () => ((await current())?.phase === 'cancelled' ? true : undefined), 'the cancel to reach the load');
      expect((await sending.reply).status).toBe(409);
      await until(async () => ((await elsewhere())?.phase === 'cancelled' ? true : undefined), 'the other instance to see the cancel');
      expect(await search('old')).toBe(45);
      expect(await search('new')).toBe(0);
    } finally {
      await second.close();
    }
  });
});
