import { generateBooks, random } from './generate-catalogue.ts';

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const ACCENTED = /[^\p{ASCII}]/u;
/** A word as typed without its accents ("miserables" for "misérables"), which the search folds alike. */
const unaccented = (word: string) => word.normalize('NFD').replace(/\p{M}/gu, '');

/**
 * A fixed stream of 1–3-word queries as people type them: words of a title they know, sometimes
 * the last one cut short (a Chinese or Japanese word by one letter), sometimes an accented word
 * typed without its accents. Long enough that no run goes through it twice, so a query repeats
 * only as often as people would repeat it. The titles are those of the first `books` books, the
 * ones a catalogue of that size holds.
 */
export function typedQueries(books: number, count: number, seed = 7): string[][] {
  const r = random(seed);
  const titles = sampledTitles(books);
  return Array.from({ length: count }, () => {
    const title = r.pick(titles);
    const start = r.int(title.length);
    const words = title.slice(start, start + 1 + r.int(3)).map((word) => (ACCENTED.test(word) && r.int(2) === 0 ? unaccented(word) : word));
    const last = words.length - 1;
    const cut = CJK.test(words[last]!) ? 1 : 2;
    if (r.int(4) === 0 && words[last]!.length > 2 * cut) words[last] = words[last]!.slice(0, words[last]!.length - cut);
    return words;
  });
}

/** What share of a stream's queries (of a catalogue of `books`) are of each kind the budget names, in percent. */
export function streamMix(books: number, queries: string[][]) {
  const known = new Set(sampledTitles(books).flat());
  const knownUnaccented = new Set([...known].filter((word) => ACCENTED.test(word)).map(unaccented));
  const share = (test: (words: string[]) => boolean) => Math.round((100 * queries.filter(test).length) / queries.length);
  return {
    'two or three words': share((words) => words.length > 1),
    'the last word cut short': share((words) => !known.has(words.at(-1)!) && !knownUnaccented.has(words.at(-1)!)),
    'a Latin accented, Cyrillic or Greek word': share((words) => words.some((word) => ACCENTED.test(word) && !CJK.test(word))),
    'an accented word typed without accents': share((words) => words.some((word) => !known.has(word) && knownUnaccented.has(word))),
    'Chinese or Japanese': share((words) => words.some((word) => CJK.test(word))),
  };
}

/**
 * Made once for each catalogue size: generating a million books takes about 20 s, and a benchmark
 * that stops its event loop that long between requests finds its kept-alive connection closed.
 */
const titlesOf = new Map<number, string[][]>();
function sampledTitles(books: number): string[][] {
  let titles = titlesOf.get(books);
  if (!titles) {
    titles = [...generateBooks(books)].filter((_, i) => i % 53 === 0).map((book) => book.title.split(' '));
    titlesOf.set(books, titles);
  }
  return titles;
}

export type SearchShape = 'titles' | 'all fields';

const ORGANISER_FIELDS: Record<SearchShape, string> = { titles: 'title', 'all fields': 'title,author,comment,file_path' };

/** Organiser's `GET /api/books`: the words as keys, over the title or over every field. */
export function organiserSearch(words: string[], shape: SearchShape, size: number): string {
  return `/api/books?keys=${encodeURIComponent(words.join(','))}&fields=${ORGANISER_FIELDS[shape]}&from=0&size=${size}`;
}

/**
 * calibre's content server search (`/ajax/search`, src/calibre/srv/ajax.py): the words as a user
 * types them, `title:"word"` for titles and bare words for every field, all of them required. It
 * answers the exact total (`total_num`) and the ids of the first page in title order. Each word is
 * quoted and joined by an explicit `and`: calibre takes the word "and" for its operator otherwise,
 * even quoted after another word. Quoted, a word still matches inside a field's text.
 */
export function calibreSearch(words: string[], shape: SearchShape, size: number): string {
  const query = words.map((word) => (shape === 'titles' ? `title:"${word}"` : `"${word}"`)).join(' and ');
  return `/ajax/search?query=${encodeURIComponent(query)}&num=${size}&offset=0`;
}

/** Hands out a stream's items in order, never starting again: a query is asked once. */
export function reader<T>(items: T[]) {
  let next = 0;
  return () => {
    if (next === items.length) throw new Error('the query stream ran out: make it longer');
    return items[next++]!;
  };
}
