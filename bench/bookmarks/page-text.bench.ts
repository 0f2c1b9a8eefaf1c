/**
 * `npm run bench -- page-text`: the bookmark search over all its fields, the kept pages' text
 * among them (decision 0043), at one user's 20,000 bookmarks each with a kept page of about 30 KB
 * of text, on SQLite and PostgreSQL. In-process, as the bookmarks service asks the index (the
 * match of both word indexes, the count and groups of every match, the page's rows and their
 * snippets; no HTTP, no kept results), beside its floor measured in the same run: the page text's
 * word query alone on a bare connection. Writes bench/results/page-text.{json,md}.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { type Insertable, sql } from 'kysely';
import pg from 'pg';
import { BOOKMARK_SEARCH_FIELDS } from '../../contract/bookmarks.ts';
import { createArchivesStore } from '../../server/src/bookmarks/archive/archives.store.ts';
import { pageWordsWriter } from '../../server/src/bookmarks/bookmark-page-words.ts';
import type { BookmarkRow } from '../../server/src/bookmarks/bookmark-row.ts';
import { linkKey } from '../../server/src/bookmarks/link-key.ts';
import { createPostgresBookmarkIndex } from '../../server/src/bookmarks/bookmarks.search.postgres.ts';
import { createSqliteBookmarkIndex } from '../../server/src/bookmarks/bookmarks.search.sqlite.ts';
import { fts5Match } from '../../server/src/search/fts5-query.ts';
import { searchTerms } from '../../server/src/search/search-text.ts';
import { migrate, openStorage, type Storage } from '../../server/src/storage/database.ts';
import type { BookmarksTable } from '../../server/src/storage/schema.ts';
import { random, VOCABULARY } from '../books/generate-catalogue.ts';
import { machine, percentile } from '../lib/measure.ts';
import { freshPostgresDatabase } from '../mixed/postgres-database.ts';
import { generateBookmarks } from './generate-bookmarks.ts';

const RESULTS = path.resolve(import.meta.dirname, '../results');
const PAGES = Number(process.env.BENCH_PAGES ?? 20_000);
/** A kept page's text, in characters on average: a long article. */
const PAGE_CHARS = Number(process.env.BENCH_PAGE_CHARS ?? 30_000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 300);
const WARM_UP = 30;
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DATABASES = (process.env.BENCH_DATABASES ?? 'sqlite,postgres').split(',') as Array<'sqlite' | 'postgres'>;
const OWNER = 'bench-page-text-user';
/** Bookmarks written (and indexed) per transaction. */
const BATCH = 500;

/** Words of the catalogue's vocabulary (40,000, with accents and several scripts), rank r about 1 / r as prose has them. */
function zipfWord(r: ReturnType<typeof random>) {
  const harmonic = Math.log(VOCABULARY.length) + 0.5772;
  return () => VOCABULARY[Math.min(VOCABULARY.length - 1, Math.max(0, Math.floor(Math.exp(r.next() * harmonic) - 1)))]!;
}

/** A page's text: sentences of prose words, half to one and a half times PAGE_CHARS. */
function pageText(r: ReturnType<typeof random>, word: () => string): string {
  const sentences: string[] = [];
  const wanted = PAGE_CHARS / 2 + r.int(PAGE_CHARS);
  for (let length = 0; length < wanted; ) {
    const sentence = Array.from({ length: 6 + r.int(14) }, word).join(' ');
    sentences.push(`${sentence[0]!.toUpperCase()}${sentence.slice(1)}.`);
    length += sentence.length + 2;
  }
  return sentences.join(' ');
}

/**
 * 1–3 words as people search for a page they read: each word half the time one of the prose's
 * (common words often), half the time any word of the vocabulary (a rare word, the one they
 * remember); the last cut short one time in four, as typed.
 */
function typedQueries(count: number): string[][] {
  const r = random(17);
  const prose = zipfWord(r);
  return Array.from({ length: count }, () => {
    const words = Array.from({ length: 1 + r.int(3) }, () => (r.int(2) === 0 ? prose() : r.pick(VOCABULARY)));
    const last = words.length - 1;
    if (r.int(4) === 0 && words[last]!.length > 4) words[last] = words[last]!.slice(0, -2);
    return words;
  });
}

const latencies = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: +percentile(sorted, 50).toFixed(2), p99: +percentile(sorted, 99).toFixed(2) };
};

/** The user, their bookmarks indexed, and each bookmark's page kept through the archive store's own write. */
async function fill(storage: Storage) {
  const db = storage.db;
  await db
    .insertInto('users')
    .values({ id: OWNER, email: 'bench@example.org', display_name: 'Bench', photo: null, password_hash: null, timezone: null, is_admin: 0, created_at: 0, updated_at: 0, disabled_at: null, password_change_required: 0 })
    .execute();
  const index = storage.dialect === 'sqlite' ? createSqliteBookmarkIndex(db) : createPostgresBookmarkIndex(db);
  const archives = createArchivesStore(db, pageWordsWriter(storage.dialect));
  const r = random(23);
  const word = zipfWord(r);
  let chars = 0;
  let batch: Array<Insertable<BookmarksTable>> = [];
  const flush = async () => {
    const rows = await db
      .insertInto('bookmarks')
      .values(batch)
      .returning(['id', 'title', 'link', 'host', 'tags', 'note', 'create_date', 'update_date', 'read_state'])
      .execute();
    const stored: BookmarkRow[] = rows.map((row) => ({ ...row, id: Number(row.id) }));
    await index.put(OWNER, stored);
    for (const row of stored) {
      const text = pageText(r, word);
      chars += text.length;
      const html = `<p>${text.slice(0, 200)}</p>`;
      const kept = await archives.putUpload(
        OWNER,
        Number(row.id),
        { title: row.title, byline: null, site_name: null, html, text, length: text.length, words: text.split(' ').length, images: 0, size: html.length + text.length },
        Number(row.create_date),
      );
      if (!kept) throw new Error(`bookmark ${row.id} not kept`);
    }
    batch = [];
  };
  for (const bookmark of generateBookmarks(PAGES)) {
    batch.push({
      owner_id: OWNER,
      title: bookmark.title,
      link: bookmark.link,
      link_key: linkKey(bookmark.link),
      host: bookmark.host,
      tags: JSON.stringify(bookmark.tags),
      note: bookmark.note || null,
      create_date: bookmark.added,
      update_date: bookmark.added,
      read_state: 'unread',
    });
    if (batch.length === BATCH) await flush();
  }
  if (batch.length > 0) await flush();
  await index.settle();
  if (storage.dialect === 'postgres') await sql`vacuum analyze bookmark_archives`.execute(db);
  return { index, textMb: Math.round(chars / 2 ** 20) };
}

async function benchOne(database: 'sqlite' | 'postgres', queries: string[][]) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'organiser-bench-page-text-'));
  const postgres = database === 'postgres' ? await freshPostgresDatabase(POSTGRES_URL, 'organiser_bench_page_text') : undefined;
  try {
    const storage = await openStorage({ dataDir: work, databaseUrl: postgres?.url });
    await migrate(storage);
    const filling = performance.now();
    const { index, textMb } = await fill(storage);
    const fillSeconds = +((performance.now() - filling) / 1000).toFixed(1);

    const termsOf = queries.map((words) => searchTerms(words.join(' ')));
    const searchTimes: number[] = [];
    const slowest: Array<{ words: string; ms: number; matches: number }> = [];
    let found = 0;
    let snippets = 0;
    for (const [at, terms] of termsOf.entries()) {
      const begun = performance.now();
      const result = await index.search(OWNER, { terms, fields: [...BOOKMARK_SEARCH_FIELDS], from: 0, size: 10 });
      if (at >= WARM_UP) {
        const ms = performance.now() - begun;
        searchTimes.push(ms);
        slowest.push({ words: queries[at]!.join(' '), ms: +ms.toFixed(1), matches: result.total });
        found += result.total;
        snippets += Object.keys(result.snippets ?? {}).length;
      }
    }
    const size =
      database === 'sqlite'
        ? `${Math.round(fs.statSync(storage.sqliteFile!).size / 2 ** 20)} MB file`
        : `${Math.round(Number((await sql<{ bytes: string }>`select pg_database_size(current_database()) as bytes`.execute(storage.db)).rows[0]!.bytes) / 2 ** 20)} MB database`;
    await storage.close();

    const floorTimes: number[] = [];
    if (database === 'sqlite') {
      const bare = new DatabaseSync(path.join(work, 'organiser.sqlite'), { readOnly: true });
      const match = bare.prepare('select rowid from bookmark_page_fts where bookmark_page_fts match ?');
      for (const [at, terms] of termsOf.entries()) {
        const begun = performance.now();
        match.all(fts5Match(terms, ['text'], ['text']));
        if (at >= WARM_UP) floorTimes.push(performance.now() - begun);
      }
      bare.close();
    } else {
      const bare = new pg.Client({ connectionString: postgres!.url });
      await bare.connect();
      // As the search's function (migration 0035): through the GIN index, never a scan of every page's vector.
      await bare.query('set enable_seqscan = off; set enable_indexscan = off');
      for (const [at, terms] of termsOf.entries()) {
        const begun = performance.now();
        await bare.query('select bookmark_id from bookmark_archives where owner_id = $1 and text_search @@ $2::tsquery', [
          OWNER,
          terms.map((term) => `'${term}':*`).join(' & '),
        ]);
        if (at >= WARM_UP) floorTimes.push(performance.now() - begun);
      }
      await bare.end();
    }
    return {
      database,
      ...(postgres ? { settings: postgres.settings } : {}),
      textMb,
      size,
      fillSeconds,
      meanMatches: Math.round(found / QUERIES),
      meanSnippets: +(snippets / QUERIES).toFixed(1),
      search: latencies(searchTimes),
      floor: latencies(floorTimes),
      slowest: slowest.sort((a, b) => b.ms - a.ms).slice(0, 5),
    };
  } finally {
    // BENCH_KEEP_DATABASE=1 leaves PostgreSQL's database for a look at its plans.
    if (process.env.BENCH_KEEP_DATABASE !== '1') await postgres?.drop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

export async function benchPageText() {
  const queries = typedQueries(WARM_UP + QUERIES);
  const runs = [];
  for (const database of DATABASES) {
    console.log(`  ${database}: ${PAGES} pages of about ${PAGE_CHARS / 1000} KB…`);
    runs.push(await benchOne(database, queries));
  }
  const result = { machine: machine(), loadAverage: os.loadavg().map((load) => +load.toFixed(1)), pages: PAGES, pageChars: PAGE_CHARS, queries: QUERIES, runs };
  fs.mkdirSync(RESULTS, { recursive: true });
  fs.writeFileSync(path.join(RESULTS, 'page-text.json'), `${JSON.stringify(result, null, 2)}\n`);
  const lines = [
    `# Bookmark search with kept pages' text (${result.machine.date.slice(0, 10)})`,
    '',
    `One user's ${PAGES} bookmarks, each with a kept page of about ${PAGE_CHARS / 1000} KB of text; ${QUERIES} queries of 1–3 words (a quarter`,
    `with the last cut short) over all fields, Page Text among them, 10 rows a page; ${result.machine.cores} cores, load average ${result.loadAverage.join(' ')}.`,
    `Budget (issue 39): p50 ≤ 20 ms, p99 ≤ 100 ms.`,
    '',
    '| database | text | stored | filled in | mean matches | mean snippets | search p50 ms | p99 ms | floor p50 ms | floor p99 ms |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...runs.map(
      (run) =>
        `| ${run.database} | ${run.textMb} MB | ${run.size} | ${run.fillSeconds} s | ${run.meanMatches} | ${run.meanSnippets} | ${run.search.p50} | ${run.search.p99} | ${run.floor.p50} | ${run.floor.p99} |`,
    ),
    '',
    'search: the index as the service asks it (both word indexes, the count and groups of every match, the page and its snippets);',
    "floor: the page text's word query alone (FTS5 / tsvector), on a bare connection, in the same run.",
    '',
    'The slowest searches:',
    '',
    ...runs.map((run) => `- ${run.database}: ${run.slowest.map((query) => `"${query.words}" ${query.ms} ms (${query.matches} matches)`).join(', ')}`),
    '',
  ];
  fs.writeFileSync(path.join(RESULTS, 'page-text.md'), lines.join('\n'));
  console.log(lines.join('\n'));
}
