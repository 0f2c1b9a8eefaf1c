import { generateBooks, random } from './generate-catalogue.ts';

/**
 * A fixed stream of 1–3-word queries as people type them: words of a title they know, sometimes
 * the last one cut short. Long enough that no run goes through it twice, so a query repeats only
 * as often as people would repeat it. The titles are those of the first `books` books, the ones
 * a catalogue of that size holds.
 */
export function typedQueries(books: number, count: number, seed = 7): string[][] {
  const r = random(seed);
  const titles = sampledTitles(books);
  return Array.from({ length: count }, () => {
    const title = r.pick(titles);
    const start = r.int(title.length);
    const words = title.slice(start, start + 1 + r.int(3));
    const last = words.length - 1;
    if (r.int(4) === 0 && words[last]!.length > 4) words[last] = words[last]!.slice(0, words[last]!.length - 2);
    return words;
  });
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
