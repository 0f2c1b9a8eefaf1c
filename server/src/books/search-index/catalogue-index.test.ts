import { describe, expect, it } from 'vitest';
import { random } from '../../../../bench/books/generate-catalogue.ts';
import { searchWords } from '../../search/search-text.ts';
import { catalogueIndex, catalogueIndexBuilder, type IndexedRow } from './catalogue-index.ts';

/**
 * The index across segments (65,536 books each) and both kinds of container: words in a few
 * books (sorted lists) and words in most (bitmaps), checked against a scan of the same books.
 * The API's tests (search-against-scan.test.ts, books.test.ts) check it against the rules.
 */
const BOOKS = 140_000;
const COMMON = ['the', 'tale', 'tales', 'river'];
const RARE = Array.from({ length: 400 }, (_, n) => `w${n}x`);

function row(seq: number, title: string, comment: string): IndexedRow {
  return {
    seq,
    title_words: searchWords(title).length,
    id: String(seq),
    title,
    author: 'Anon',
    comment,
    path: '',
    formats: seq % 3 === 0 ? '["a/b (1)/c.epub"]' : '[]',
    format_mask: seq % 3 === 0 ? 2 : 0,
    series: null,
    tags: '[]',
    identifiers: '{}', languages: '[]', publisher: '',
  };
}

describe('the catalogue index', () => {
  const r = random(11);
  const books = Array.from({ length: BOOKS }, (_, n) => {
    const title = [r.pick(COMMON), ...(r.int(50) === 0 ? [r.pick(RARE)] : [])].join(' ');
    return { seq: 3 * n + 1, title, comment: r.int(2) === 0 ? 'the sea' : r.pick(RARE) };
  });
  const builder = catalogueIndexBuilder();
  for (const book of books) builder.add(row(book.seq, book.title, book.comment));
  const index = catalogueIndex(builder.finish());

  const has = (text: string, term: string) => searchWords(text).some((word) => word.startsWith(term));
  const scan = (terms: string[], fields: Array<'title' | 'comment'>, epub: boolean) =>
    books.filter(
      (book) => (!epub || book.seq % 3 === 0) && terms.every((term) => fields.some((field) => has(book[field], term))),
    );

  it.each([
    [['the'], ['title']],
    [['tale'], ['title']],
    [['t'], ['title', 'comment']],
    [['w1'], ['title']],
    [['w12x'], ['title', 'comment']],
    [['sea', 'tales'], ['title', 'comment']],
    [['riv', 'w3'], ['title', 'comment']],
    [['nothing'], ['title']],
  ] as Array<[string[], Array<'title' | 'comment'>]>)('counts %j in %j exactly, in every segment', (terms, fields) => {
    for (const epub of [false, true]) {
      const expected = scan(terms, fields, epub);
      const { total, seqs } = index.search({ terms, fields, format: epub ? 'epub' : '', from: 3, size: 5 }, []);
      expect(total).toBe(expected.length);
      // Over 5,000 matches: newest first; fewer: with every term in the title first when other
      // fields are searched too, then shorter titles, then catalogue order.
      const tier = (title: string) => (fields.length > 1 && !terms.every((term) => has(title, term)) ? 1 : 0);
      const order =
        expected.length > 5000
          ? expected.map((book) => book.seq).reverse()
          : expected
              .map((book) => ({ seq: book.seq, tier: tier(book.title), length: searchWords(book.title).length }))
              .sort((a, b) => a.tier - b.tier || a.length - b.length || a.seq - b.seq)
              .map((book) => book.seq);
      expect(seqs).toEqual(order.slice(3, 8));
    }
  });

  it('adds the identified books to the matches, whatever their words', () => {
    const { total } = index.search({ terms: ['nothing'], fields: ['title'], format: '', from: 0, size: 5 }, [books[70_000]!.seq, 2]);
    expect(total).toBe(1);
  });
});

describe('the sets the index keeps for common words', () => {
  // A hundred words, each in about half the books: more common words than the index keeps sets
  // for, so that sets are made, used again, and dropped for others as searches go on.
  const WORDS = Array.from({ length: 100 }, (_, n) => `common${n}`);
  const r = random(12);
  const books = Array.from({ length: 3_000 }, (_, n) => ({
    seq: n + 1,
    title: r.pick(WORDS),
    comment: WORDS.filter(() => r.int(2) === 0).join(' '),
  }));
  const builder = catalogueIndexBuilder();
  for (const book of books) builder.add(row(book.seq, book.title, book.comment));
  const index = catalogueIndex(builder.finish());
  // Each book's words split once: splitting them again for every search made the scan take 17 s of
  // a 20 s limit on a slow machine.
  const wordsOf = books.map((book) => ({ title: searchWords(book.title), comment: searchWords(book.comment) }));
  const count = (terms: string[], fields: Array<'title' | 'comment'>) =>
    wordsOf.filter((words) => terms.every((term) => fields.some((field) => words[field].some((word) => word.startsWith(term))))).length;

  it('counts exactly whichever sets are kept at the time', () => {
    const searches = Array.from({ length: 600 }, () => {
      const terms = Array.from({ length: 1 + r.int(3) }, () => r.pick(WORDS));
      const fields: Array<'title' | 'comment'> = r.int(3) === 0 ? ['comment'] : ['title', 'comment'];
      return { terms, fields };
    });
    const totals = searches.map(({ terms, fields }) => index.search({ terms, fields, format: '', from: 0, size: 5 }, []).total);
    expect(totals).toEqual(searches.map(({ terms, fields }) => count(terms, fields)));
  });
});

describe("the lists' path with a common word beside a rare one", () => {
  // 4,096 books: a rare word in 40 (the candidates), a common one in a tenth of the titles and in
  // half the comments. Over both fields the common word is kept and only filters the candidates;
  // over the title alone it is not kept, and too many to union beside the list, so the title's
  // books that rank first come from the bits' path.
  const BOOKS = 4096;
  const r = random(13);
  const books = Array.from({ length: BOOKS }, (_, n) => {
    const rare = n % 100 === 7 ? ['rarest'] : [];
    const title = [...(r.int(10) === 0 ? ['common'] : ['plain']), ...(r.int(2) === 0 ? rare : []), ...Array.from({ length: r.int(3) }, () => 'word')];
    const comment = [...(r.int(2) === 0 ? ['common'] : ['other']), ...(title.includes('rarest') ? [] : rare)];
    return { seq: n + 1, title: title.join(' '), comment: comment.join(' ') };
  });
  const builder = catalogueIndexBuilder();
  for (const book of books) builder.add(row(book.seq, book.title, book.comment));
  const index = catalogueIndex(builder.finish());
  const has = (text: string, term: string) => searchWords(text).some((word) => word.startsWith(term));

  it.each([[['rarest', 'common']], [['common', 'rar']], [['rarest', 'comm', 'word']]])('finds and ranks %j over the title and comment as a scan does', (terms) => {
    const fields: Array<'title' | 'comment'> = ['title', 'comment'];
    const expected = books
      .filter((book) => terms.every((term) => fields.some((field) => has(book[field], term))))
      .map((book) => ({ seq: book.seq, tier: terms.every((term) => has(book.title, term)) ? 0 : 1, length: searchWords(book.title).length }))
      .sort((a, b) => a.tier - b.tier || a.length - b.length || a.seq - b.seq)
      .map((book) => book.seq);
    expect(expected.length).toBeGreaterThan(3);
    for (let round = 0; round < 2; round++) {
      const { total, seqs } = index.search({ terms, fields, format: '', from: 0, size: 100 }, []);
      expect(total).toBe(expected.length);
      expect(seqs).toEqual(expected);
    }
  });
});

describe('words of a single book, and of a single book in a segment', () => {
  // Two segments. `lone…` words are in one book each (kept apart, with their book), `pair…` words
  // in one book of each segment (two containers of one book) and `few…` words in three books of
  // the first and one of the second.
  const BOOKS = 100_000;
  const titles = Array.from({ length: BOOKS }, (_, n) => (n % 2 === 0 ? 'the sea' : 'a river'));
  const add = (doc: number, word: string) => (titles[doc] += ` ${word}`);
  for (let k = 0; k < 300; k++) {
    add(k * 97, `lone${k}`);
    add(k * 101 + 7, `pair${k}`);
    add(70_000 + k * 89, `pair${k}`);
  }
  for (let k = 0; k < 50; k++) {
    for (const doc of [k * 13, k * 13 + 5, k * 13 + 9, 66_000 + k * 7]) add(doc, `few${k}`);
  }
  const builder = catalogueIndexBuilder();
  titles.forEach((title, doc) => builder.add(row(doc + 1, title, '')));
  const index = catalogueIndex(builder.finish());
  const wordsOf = titles.map((title) => searchWords(title));
  const scan = (terms: string[]) =>
    wordsOf.flatMap((words, doc) => (terms.every((term) => words.some((word) => word.startsWith(term))) ? [doc + 1] : []));

  it('finds each of their books, alone and with other words, by whichever path the search takes', () => {
    const searches = [
      ...['lone0', 'lone7', 'lone12', 'pair3', 'pair250', 'few9', 'few49'].map((word) => [word]),
      ['lone1'],
      ['pair'],
      ['few'],
      ['p'],
      ['lone', 'the'],
      ['pair', 'river'],
      ['few', 'sea'],
      ['pair1', 'pair12'],
      ['lone', 'pair'],
    ];
    // Twice, in turn: a set a search left behind would change the next one's answer.
    for (let round = 0; round < 2; round++) {
      for (const terms of searches) {
        const expected = scan(terms);
        const { total, seqs } = index.search({ terms, fields: ['title'], format: '', from: 0, size: 5000 }, []);
        expect({ terms, total }).toEqual({ terms, total: expected.length });
        expect(seqs.toSorted((a, b) => a - b)).toEqual(expected);
      }
    }
    expect(scan(['pair']).length).toBe(600);
  });
});

describe("the books' seq in the index", () => {
  const build = (seqs: number[]) => {
    const builder = catalogueIndexBuilder();
    for (const seq of seqs) builder.add(row(seq, `Book ${seq}`, ''));
    return builder.finish();
  };
  const query = { terms: ['book'], fields: ['title' as const], format: '' as const, from: 0, size: 10 };

  it('is kept in 32 bits while every one fits', () => {
    const data = build([1, 7, 2 ** 32 - 1]);
    expect(data.seqs).toBeInstanceOf(Uint32Array);
    expect(catalogueIndex(data).search(query, []).seqs.sort((a, b) => a - b)).toEqual([1, 7, 2 ** 32 - 1]);
  });

  it('is kept whole past 32 bits (a catalogue loaded again and again)', () => {
    const seqs = [5, 2 ** 32 + 3, 2 ** 40 + 1];
    const data = build(seqs);
    expect(data.seqs).toBeInstanceOf(Float64Array);
    const index = catalogueIndex(data);
    expect(index.search(query, []).seqs.sort((a, b) => a - b)).toEqual(seqs);
    // Found by its seq, as a book whose identifier the keys are.
    expect(index.search({ ...query, terms: ['nothing'] }, [2 ** 40 + 1]).seqs).toEqual([2 ** 40 + 1]);
  });
});
