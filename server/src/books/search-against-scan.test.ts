import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOK_FORMATS, BOOK_INDEXED_FIELDS, type BookIndexedField, BookResults } from '../../../contract/books.ts';
import { random } from '../../../bench/books/generate-catalogue.ts';
import { searchTerms, searchWords } from '../search/search-text.ts';
import { multipart } from '../test/multipart.ts';
import { bearer, buildTestApp, createTestDatabase, registerUser, type TestApp, testDialects } from '../test/test-app.ts';

/**
 * Every search of a generated catalogue answered as a plain scan of the same books answers it:
 * each word a prefix of some folded word of a chosen field, or the keys a book's identifier. The
 * vocabulary is small so that searches hit, and holds accents, letters folded beyond NFKD,
 * other scripts, and the words of the library's own folders.
 */
const SEED = Number(process.env.SEARCH_SCAN_SEED ?? 20260101);
const BOOKS = 600;
const QUERIES = 300;
const LIBRARY = '/home/reader/Calibre Library';

const VOCABULARY = [
  'paper', 'papers', 'pale', 'river', 'rivers', 'sea', 'seal', 'tale', 'tales', 'the', 'them', 'home', 'library',
  'reader', 'calibre', 'Kırmızı', 'Łódź', 'Straße', 'Æsir', 'Œuvre', 'Þorn', 'Øresund', 'Đakovo', 'Ħamrun',
  'Misérables', 'Fräulein', 'Über', 'crème', 'Noël', 'война', 'Ιλιάδα', '吾輩は猫である', '1984', 'c3po',
];
/** What a user types for some of them, and words no book has. */
const TYPED = ['kirmizi', 'lodz', 'strasse', 'aesir', 'oeuvre', 'thorn', 'oresund', 'dakovo', 'hamrun', 'uber', 'creme'];
const MISSES = ['xqzt', 'zebra', 'qq'];
const SEPARATORS = [' ', ', ', ' - ', ': ', ' & '];

type Generated = {
  id: string;
  title: string;
  author: string;
  comment: string | null;
  tags: string[];
  series: string | null;
  identifiers: Record<string, string>;
  /** The words of each field as a user reads it: the comment's words, the paths below the library. */
  words: Record<BookIndexedField, string[]>;
  extensions: string[];
  identifier: string;
};

function generate(r: ReturnType<typeof random>): Generated[] {
  const words = (least: number, most: number) =>
    Array.from({ length: least + r.int(most - least + 1) }, () => r.pick(VOCABULARY));
  const books: Generated[] = [];
  for (let n = 1; n <= BOOKS; n++) {
    const id = String(n);
    const title = words(1, 4).join(r.pick(SEPARATORS));
    const author = words(1, 2).join(' ');
    const commentWords = r.int(3) === 0 ? [] : words(1, 6);
    const extensions = BOOK_FORMATS.filter(() => r.int(3) === 0);
    const below = extensions.map((extension) => `${author}/${title} (${id})/${title} - ${author}.${extension}`);
    const chosen = [`isbn:978${String(r.int(1e6)).padStart(6, '0')}${id.padStart(4, '0')}`, `goodreads:${r.int(1e6)}`, ''][r.int(3)]!;
    // Sometimes another identifier, whose value is searched too (not its type). Its type sorts
    // last, so it is the book's identifier only when there is no other (calibre-mapping.ts).
    const other = r.int(3) === 0 ? `zlib:z${r.pick(['paper', 'river', 'sea', 'tale'])}${r.int(100)}` : '';
    const identifier = chosen || other;
    const identifiers = Object.fromEntries([chosen, other].filter(Boolean).map((typed) => typed.split(':'))) as Record<string, string>;
    const tags = [...new Set(words(0, 2))];
    const series = r.int(3) === 0 ? words(1, 2).join(' ') : null;
    books.push({
      id,
      title,
      author,
      comment: commentWords.length === 0 ? null : `<p>${commentWords.join(' <b>&amp;</b> ')}</p>`,
      tags,
      series,
      identifiers,
      words: {
        title: searchWords(title),
        author: searchWords(author),
        // Tags and series are words about the book in the comment field too (indexed-text.ts).
        comment: searchWords([...commentWords, ...tags, series ?? ''].join(' ')),
        file_path: searchWords(below.join(' ')),
        series: searchWords(series ?? ''),
        tags: searchWords(tags.join(' ')),
        identifiers: searchWords(Object.values(identifiers).join(' ')),
      },
      extensions,
      identifier,
    });
  }
  return books;
}

function calibreJson(books: Generated[]): Buffer {
  return Buffer.from(
    JSON.stringify(
      books.map((book) => ({
        id: Number(book.id),
        title: book.title,
        authors: book.author.split(' '),
        identifiers: book.identifiers,
        comments: book.comment ?? undefined,
        tags: book.tags,
        ...(book.series === null ? {} : { series: book.series, series_index: 1 }),
        formats: book.extensions.map(
          (extension) => `${LIBRARY}/${book.author}/${book.title} (${book.id})/${book.title} - ${book.author}.${extension}`,
        ),
      })),
    ),
  );
}

type Query = { keys: string; fields: BookIndexedField[]; format: '' | (typeof BOOK_FORMATS)[number] };

function randomQuery(r: ReturnType<typeof random>, books: Generated[]): Query {
  const fields = BOOK_INDEXED_FIELDS.filter(() => r.int(2) === 0);
  const format = r.int(6) === 0 ? r.pick(BOOK_FORMATS) : '';
  const chosen = fields.length > 0 ? fields : [r.pick(BOOK_INDEXED_FIELDS)];
  if (r.int(20) === 0) {
    const identifier = r.pick(books.filter((book) => book.identifier)).identifier.split(':')[1]!;
    return { keys: identifier.replace(/(\d{3})(\d)(\d{2})/, '$1-$2-$3-'), fields: chosen, format };
  }
  const keys = Array.from({ length: 1 + r.int(3) }, () => {
    const roll = r.int(10);
    const word = roll < 7 ? r.pick(VOCABULARY) : roll < 9 ? r.pick(TYPED) : r.pick(MISSES);
    const prefix = word.slice(0, 1 + r.int(word.length));
    return r.int(4) === 0 ? prefix.toUpperCase() : prefix;
  });
  return { keys: keys.join(','), fields: chosen, format };
}

/** The plain scan: matches, ranked as books.search.ts says (title holding every word, title length, catalogue order). */
function scan(books: Generated[], query: Query, { from, size }: Page) {
  const terms = searchTerms(query.keys);
  const typed = query.keys.toLowerCase().replace(/[^a-z0-9]/g, '');
  const has = (words: string[], term: string) => words.some((word) => word.startsWith(term));
  const matches = books.filter((book) => {
    if (query.format && !book.extensions.includes(query.format)) return false;
    const value = book.identifier.slice(book.identifier.indexOf(':') + 1);
    if (book.identifier && value === typed) return true;
    return terms.every((term) => query.fields.some((field) => has(book.words[field], term)));
  });
  const titleTier = query.fields.includes('title') && !(query.fields.length === 1);
  const rank = (book: Generated) => [
    titleTier && !terms.every((term) => has(book.words.title, term)) ? 1 : 0,
    book.words.title.length,
    Number(book.id),
  ];
  const ranked = matches
    .map((book) => ({ book, key: rank(book) }))
    .sort((a, b) => a.key[0]! - b.key[0]! || a.key[1]! - b.key[1]! || a.key[2]! - b.key[2]!);
  return { total: matches.length, ids: ranked.slice(from, from + size).map(({ book }) => book.id) };
}

/** A page of the results: a long first one, or a short one near the top (page-of-keys.ts keeps those without a sort). */
type Page = { from: number; size: number };
const pageOf = (n: number): Page => (n % 2 === 0 ? { from: 0, size: 100 } : { from: n % 7, size: 10 });

/** Book search has one engine: the word index (search-index/). */
const ENGINES = [['the word index', 'wait']] as const;

describe.each(testDialects.flatMap((dialect) => ENGINES.map(([name, wordIndex]) => ({ dialect, name, wordIndex }))))(
  'book search against a plain scan on $dialect, $name',
  ({ dialect, wordIndex }) => {
  let t: TestApp;
  let token: string;
  let drop: () => Promise<void>;
  const r = random(SEED);
  const books = generate(r);

  beforeAll(async () => {
    const database = await createTestDatabase(dialect);
    drop = database.drop;
    t = await buildTestApp(database, { wordIndex });
    token = (await registerUser(t.app)).idToken;
    const body = multipart([['name', 'replace'], ['file', calibreJson(books), 'index']]);
    const loaded = await t.app.inject({ method: 'POST', url: '/api/books/index', ...body, headers: { ...body.headers, ...bearer(token) } });
    expect(loaded.json()).toMatchObject({ total_count: BOOKS, error_count: 0 });
  });
  afterAll(async () => {
    await t.close();
    await drop();
  });

  it(`answers ${QUERIES} random searches as the scan does (seed ${SEED})`, async () => {
    let hits = 0;
    for (let n = 0; n < QUERIES; n++) {
      const query = randomQuery(r, books);
      const page = pageOf(n);
      const response = await t.app.inject({
        url: '/api/books',
        query: { keys: query.keys, fields: query.fields.join(','), format: query.format, from: String(page.from), size: String(page.size) },
        headers: bearer(token),
      });
      const result = BookResults.parse(response.json());
      const expected = scan(books, query, page);
      const found = { total: result.total, ids: result.books.map((book) => book.id) };
      expect(found, `seed ${SEED}, query ${n}, ${JSON.stringify(page)}: ${JSON.stringify(query)}`).toEqual(expected);
      if (expected.total > 0) hits++;
    }
    // The comparison means something only if most searches find books, and not all of them.
    expect(hits).toBeGreaterThan(QUERIES / 2);
    expect(hits).toBeLessThan(QUERIES);
  });

  // Searches asked together run side by side, several at a time on each searching thread: each
  // must still get its own page, words and identifiers mixed.
  it('answers searches asked all at once as the scan does, each its own page', async () => {
    const asked = Array.from({ length: 200 }, (_, n) => ({ query: randomQuery(r, books), page: pageOf(n) }));
    const answers = await Promise.all(
      asked.map(({ query, page }) =>
        t.app.inject({
          url: '/api/books',
          query: { keys: query.keys, fields: query.fields.join(','), format: query.format, from: String(page.from), size: String(page.size) },
          headers: bearer(token),
        }),
      ),
    );
    answers.forEach((response, n) => {
      const { query, page } = asked[n]!;
      const result = BookResults.parse(response.json());
      expect({ total: result.total, ids: result.books.map((book) => book.id) }, `${JSON.stringify(page)}: ${JSON.stringify(query)}`).toEqual(scan(books, query, page));
    });
    expect(asked.filter(({ query, page }) => scan(books, query, page).total > 0).length).toBeGreaterThan(100);
  });
  },
);
