import fs from 'node:fs';
import { random } from '../books/generate-catalogue.ts';

/** The sites people bookmark most, most first; a long tail of made-up sites follows them. */
const POPULAR_HOSTS = [
  'github.com', 'stackoverflow.com', 'en.wikipedia.org', 'youtube.com', 'medium.com', 'news.ycombinator.com',
  'developer.mozilla.org', 'reddit.com', 'arxiv.org', 'nytimes.com', 'bbc.co.uk', 'dev.to', 'docs.python.org',
  'theguardian.com', 'lwn.net', 'martinfowler.com', 'smashingmagazine.com', 'css-tricks.com', 'gitlab.com',
  'docs.rs', 'npmjs.com', 'nature.com', 'economist.com', 'seriouseats.com', 'bonappetit.com', 'lonelyplanet.com',
  'fr.wikipedia.org', 'de.wikipedia.org', 'ru.wikipedia.org', 'postgresql.org', 'sqlite.org', 'kernel.org',
];
const NAMED_TAGS = [
  'to-read', 'work', 'reference', 'javascript', 'typescript', 'rust', 'python', 'go', 'databases', 'design', 'css',
  'recipes', 'travel', 'music', 'science', 'history', 'news', 'tutorial', 'video', 'tools', 'security', 'linux',
  'career', 'finance', 'health', 'photography', 'books', 'research', 'inspiration', 'later', 'café', 'économie',
];
const WORDS = [
  'how', 'why', 'guide', 'introduction', 'deep', 'dive', 'understanding', 'building', 'scaling', 'testing', 'modern',
  'fast', 'simple', 'complete', 'practical', 'notes', 'lessons', 'learned', 'years', 'production', 'performance',
  'database', 'index', 'search', 'query', 'server', 'browser', 'network', 'security', 'design', 'system', 'patterns',
  'react', 'rust', 'python', 'postgres', 'sqlite', 'linux', 'kernel', 'memory', 'cache', 'compiler', 'types',
  'recipe', 'bread', 'coffee', 'garden', 'travel', 'mountains', 'city', 'history', 'science', 'climate', 'music',
  'photography', 'career', 'interview', 'remote', 'team', 'startup', 'economics', 'market', 'health', 'sleep',
  'misérables', 'éducation', 'café', 'señor', 'größe', 'война', 'мир', 'λόγος', 'naïve', 'crème', 'brûlée',
];
const SYLLABLES = ['ka', 'ri', 'mo', 'lan', 'ter', 'vi', 'so', 'nel', 'dra', 'quin', 'bel', 'tor', 'sa', 'lu', 'ra', 'zi', 'gar', 'po'];
const TLDS = ['com', 'org', 'io', 'dev', 'net', 'co.uk', 'de', 'fr'];

/** Picks index k with probability proportional to 1 / (k + 1): a few items common, most rare. */
function zipf<T>(items: readonly T[], r: ReturnType<typeof random>) {
  const cumulative: number[] = [];
  let sum = 0;
  for (let k = 0; k < items.length; k++) cumulative.push((sum += 1 / (k + 1)));
  return () => {
    const target = r.next() * sum;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (cumulative[mid]! < target) low = mid + 1;
      else high = mid;
    }
    return items[low]!;
  };
}

function madeUp(r: ReturnType<typeof random>, syllables: number) {
  return Array.from({ length: syllables }, () => r.pick(SYLLABLES)).join('');
}

export type GeneratedBookmark = { title: string; link: string; host: string; tags: string[]; note: string; added: number };

/** `count` bookmarks of one user, the same for a seed: titles, hosts and tags as people collect them. */
export function* generateBookmarks(count: number, seed = 11): Generator<GeneratedBookmark> {
  const r = random(seed);
  const hosts = [...POPULAR_HOSTS, ...Array.from({ length: 5000 }, (_, i) => `${madeUp(r, 2 + (i % 3))}${i}.${r.pick(TLDS)}`)];
  const tags = [...NAMED_TAGS, ...Array.from({ length: 400 }, (_, i) => `${madeUp(r, 2)}-${i}`)];
  const words = [...WORDS, ...Array.from({ length: 6000 }, () => madeUp(r, 2 + r.int(3)))];
  const host = zipf(hosts, r);
  const tag = zipf(tags, r);
  const word = zipf(words, r);
  const tenYearsAgo = Date.UTC(2016, 0, 1);
  for (let i = 0; i < count; i++) {
    const title = Array.from({ length: 3 + r.int(7) }, word).join(' ');
    const site = host();
    yield {
      title: title[0]!.toUpperCase() + title.slice(1),
      link: `https://${site}/${title.split(' ').slice(0, 4).join('-')}-${i}`,
      host: site.replace(/^www\./, ''),
      tags: [...new Set(Array.from({ length: r.int(5) }, tag))],
      note: r.int(10) < 3 ? Array.from({ length: 5 + r.int(16) }, word).join(' ') : '',
      added: tenYearsAgo + Math.floor((i / count) * 10 * 365 * 86_400_000),
    };
  }
}

const escape = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/** The bookmarks as a browser's bookmarks file, for the import. */
export function writeNetscapeFile(file: string, count: number) {
  const out = fs.openSync(file, 'w');
  fs.writeSync(out, '<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<TITLE>Bookmarks</TITLE>\n<H1>Bookmarks</H1>\n<DL><p>\n');
  for (const b of generateBookmarks(count)) {
    const seconds = Math.floor(b.added / 1000);
    const tags = b.tags.length > 0 ? ` TAGS="${escape(b.tags.join(','))}"` : '';
    fs.writeSync(out, `<DT><A HREF="${escape(b.link)}" ADD_DATE="${seconds}" LAST_MODIFIED="${seconds}"${tags}>${escape(b.title)}</A>\n`);
    if (b.note) fs.writeSync(out, `<DD>${escape(b.note)}\n`);
  }
  fs.writeSync(out, '</DL><p>\n');
  fs.closeSync(out);
}
