import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BookResults } from '../../../../contract/books.ts';
import { HealthReply } from '../../../../contract/health.ts';
import { bearer, registerUser, type TestApp, testAppOn, testDialects } from '../../test/test-app.ts';
import { CALIBRE_FULL_TEXT_DB } from './calibre-text.ts';

const FIXTURE_LIBRARY = path.join(import.meta.dirname, '../fixtures/library');
/** Calibre's full-text database of that library, made by calibre itself (make-calibre-full-text.sh). */
const FIXTURE_FULL_TEXT = path.join(import.meta.dirname, '../fixtures/library-full-text', CALIBRE_FULL_TEXT_DB);
const run = promisify(execFile);
const mark = (word: string) => `\u0002${word}\u0003`;

describe.each(testDialects)("the books' text on %s", (dialect) => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'organiser-book-text-'));
  const library = path.join(work, 'Calibre Library');
  let t: TestApp;
  let reader: string;
  let other: string;

  /** Calibre's own command line on the copy, in a network namespace of its own (see library.watcher.programs.test.ts). */
  const calibredb = (...args: string[]) =>
    run('unshare', ['--net', '--map-root-user', 'calibredb', ...args, '--library-path', library], {
      env: { ...process.env, CALIBRE_CONFIG_DIRECTORY: path.join(work, 'calibre-config'), QT_QPA_PLATFORM: 'offscreen', TZ: 'UTC' },
    });
  const search = async (keys: string, fields: string, user = reader) => {
    const response = await t.app.inject({ url: '/api/books', query: { keys, fields }, headers: bearer(user) });
    expect(response.statusCode, response.body).toBe(200);
    return BookResults.parse(response.json());
  };
  /** Asks again until `done` holds: the library's load and the text's update run in the background. */
  const searchWhen = async (keys: string, fields: string, done: (results: BookResults) => boolean) => {
    const until = Date.now() + 30_000;
    for (;;) {
      const results = await search(keys, fields);
      if (done(results)) return results;
      if (Date.now() > until) throw new Error(`never got there: ${JSON.stringify(results)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  beforeAll(async () => {
    fs.cpSync(FIXTURE_LIBRARY, library, { recursive: true });
    fs.copyFileSync(FIXTURE_FULL_TEXT, path.join(library, CALIBRE_FULL_TEXT_DB));
    t = await testAppOn(dialect, { env: { CALIBRE_LIBRARY: library, ALLOW_SIGNUP: 'true' } });
    await t.app.ready();
    // The first load's transaction holds SQLite's one writer: a sign-up waits for its end.
    for (const until = Date.now() + 30_000; ; ) {
      const { library: status } = HealthReply.parse((await t.app.inject({ url: '/api/health' })).json());
      if (status?.last_load && !status.loading) break;
      if (Date.now() > until) throw new Error(`the library was not loaded: ${JSON.stringify(status)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    reader = (await registerUser(t.app)).idToken;
    other = (await registerUser(t.app)).idToken;
    await searchWhen('', 'title', (results) => results.total === 6 && results.text_searchable);
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('finds a word that only the books’ text holds, with a snippet around it', async () => {
    expect((await search('organiser', 'title,author,comment,file_path,series,tags,identifiers')).total).toBe(0);
    const found = await search('organiser', 'text');
    expect(found.total).toBe(3);
    expect(found.books.map((book) => book.id).sort()).toEqual(['1', '2', '3']);
    for (const book of found.books) expect(found.snippets[book.id]).toContain(`the ${mark('Organiser')} fixtures`);
    expect(found.text_searchable).toBe(true);
  });

  it('folds accents and reads each word as a prefix', async () => {
    for (const keys of ['misérables', 'miserables', 'MISER']) {
      const found = await search(keys, 'text');
      expect(found.books.map((book) => book.id), keys).toEqual(['3']);
      expect(found.snippets['3']).toContain(mark('Misérables'));
    }
    expect((await search('organiser short', 'text')).total).toBe(3);
    expect((await search('organiser nowhere', 'text')).total).toBe(0);
  });

  it('adds the books found by their text to those found in the other fields, counted once', async () => {
    // The Science of Discworld by its title and its text, The Globe by its text alone.
    const found = await search('pratchett', 'title,text');
    expect(found.total).toBe(2);
    expect(found.books.map((book) => book.id).sort()).toEqual(['1', '2']);
    const titled = await search('slumberland', 'title,text');
    expect(titled.books.map((book) => book.id)).toEqual(['4']);
    expect(titled.snippets).toEqual({});
    // A book found by its text alone past the page: the total counts it.
    const paged = await t.app.inject({ url: '/api/books', query: { keys: 'organiser', fields: 'text', size: '1', from: '2' }, headers: bearer(reader) });
    const page = BookResults.parse(paged.json());
    expect(page).toMatchObject({ total: 3 });
    expect(page.books).toHaveLength(1);
    expect(Object.keys(page.snippets)).toEqual([page.books[0]!.id]);
  });

  it('narrows the books found by their text by format, as the others', async () => {
    const response = await t.app.inject({ url: '/api/books', query: { keys: 'organiser', fields: 'text', format: 'pdf' }, headers: bearer(reader) });
    const found = BookResults.parse(response.json());
    expect(found.books.map((book) => book.id)).toEqual(['1']);
    expect(found.total).toBe(1);
  });

  it('answers another user the same catalogue', async () => {
    const mine = await search('organiser', 'text');
    const theirs = await search('organiser', 'text', other);
    expect(theirs.total).toBe(mine.total);
    expect(theirs.snippets).toEqual(mine.snippets);
  });

  it('finds nothing of a book once Calibre has removed it', async () => {
    await calibredb('remove', '3', '--permanent');
    await searchWhen('', 'title', (results) => results.total === 5);
    const found = await searchWhen('misérables', 'text', (results) => results.total === 0);
    expect(found.snippets).toEqual({});
    expect((await search('organiser', 'text')).total).toBe(2);
  });

  it('is no longer offered once the library has no full-text database, and finds nothing', async () => {
    fs.rmSync(path.join(library, CALIBRE_FULL_TEXT_DB));
    const found = await searchWhen('organiser', 'text', (results) => !results.text_searchable);
    expect(found.total).toBe(0);
  });
});
