import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';

/** A small seeded generator, so every run makes the same catalogue. */
export function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (below: number) => Math.floor(next() * below),
    pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!,
  };
}

// Words with accents and several scripts, as a real library has them.
const SEED_WORDS = [
  'shadow', 'river', 'garden', 'winter', 'empire', 'silence', 'journey', 'memory', 'ocean', 'forest', 'city', 'night',
  'stranger', 'history', 'secret', 'kingdom', 'letters', 'machine', 'light', 'island', 'mountain', 'promise', 'fire',
  'misérables', 'éducation', 'élan', 'café', 'señor', 'niño', 'über', 'fräulein', 'größe', 'leçon', 'mañana', 'cœur',
  'война', 'мир', 'преступление', 'наказание', 'ιλιάδα', 'οδύσσεια', 'λόγος', 'programming', 'algorithms', 'design',
  'patterns', 'systems', 'networks', 'database', 'compiler', 'physics', 'chemistry', 'biology', 'economics', 'art',
  'music', 'poetry', 'philosophy', 'science', 'mathematics', 'language', 'travel', 'cooking', 'gardening', 'photography',
] as const;
/**
 * Chinese and Japanese titles: a run of these letters is one word to the search, so they are
 * written as such runs, a space between them as calibre shows many such titles.
 */
const CJK_WORDS = [
  '红楼梦', '三国演义', '西游记', '水浒传', '三体', '黑暗森林', '死神永生', '围城', '活着', '骆驼祥子', '边城', '家', '春', '秋',
  '源氏物語', '枕草子', '羅生門', '雪国', '吾輩は猫である', 'こころ', 'ノルウェイの森', '海辺のカフカ', '東京', '物語', '京都',
  '人間失格', '風の歌を聴け', '銀河鉄道の夜', '山の音', '金閣寺', '历史', '科学', '数学', '哲学', '音乐', '诗集', '小说', '日记',
] as const;
/** One title in this many is Chinese or Japanese. */
const CJK_TITLE_EVERY = 20;
const STOP_WORDS = ['the', 'of', 'and', 'a', 'in', 'to', 'for', 'on', 'with', 'from', 'de', 'la', 'le', 'der', 'die', 'und'];
const SYLLABLES = ['ka', 'ri', 'mo', 'lan', 'ter', 'vi', 'so', 'nel', 'dra', 'quin', 'bel', 'tor', 'sa', 'mé', 'lu', 'ön', 'ra', 'zi', 'gar', 'po'];

/**
 * A library's vocabulary is large and its use uneven: a few words are everywhere, most are rare
 * (Zipf's law). 40,000 words, the seed words and stop words the most frequent.
 */
function vocabulary(): string[] {
  const r = random(3);
  const made = new Set<string>([...STOP_WORDS, ...SEED_WORDS]);
  while (made.size < 40_000) {
    made.add(Array.from({ length: 2 + r.int(3) }, () => r.pick(SYLLABLES)).join(''));
  }
  return [...made];
}

export const VOCABULARY = vocabulary();

/** Picks word i with probability proportional to 1 / (i + 1). */
function zipf(r: ReturnType<typeof random>): () => string {
  const n = VOCABULARY.length;
  const harmonic = Math.log(n) + 0.5772;
  return () => {
    const rank = Math.min(n - 1, Math.floor(Math.exp(r.next() * harmonic) - 1));
    return VOCABULARY[Math.max(0, rank)]!;
  };
}

const FIRST_NAMES = ['Anna', 'José', 'Zoë', 'Björn', 'François', 'Ivan', 'Mei', 'Olga', 'Pierre', 'Søren', 'Chloé', 'Hiro', 'Amir', 'Lucía', 'Tomás', 'Eva'];
const LAST_NAMES = ['García', 'Müller', 'Dupont', 'Smith', 'Nakamura', 'Petrov', 'Rossi', 'Kowalski', 'Nguyen', 'Larsen', 'Öztürk', 'Brontë', 'Dostoevsky', 'Tolstoy', 'Austen', 'Orwell'];
const PUBLISHERS = ['Gallimard', 'Penguin', 'Suhrkamp', 'Reclam', 'Anagrama', 'Vintage', 'O’Reilly', 'Springer', 'Eksmo', 'Kodansha'];
const FORMATS = ['epub', 'pdf', 'mobi', 'azw3', 'chm'] as const;

export type GeneratedBook = {
  id: number;
  title: string;
  authors: string;
  comments: string;
  formats: string[];
  isbn: string;
  pubdate: string;
  publisher: string;
  timestamp: string;
  last_modified: string;
};

export function* generateBooks(count: number, seed = 42): Generator<GeneratedBook> {
  const r = random(seed);
  const word = zipf(r);
  const base = Date.UTC(2015, 0, 1);
  for (let id = 1; id <= count; id++) {
    const title =
      r.int(CJK_TITLE_EVERY) === 0 ? Array.from({ length: 1 + r.int(2) }, () => r.pick(CJK_WORDS)).join(' ') : Array.from({ length: 1 + r.int(5) }, word).join(' ');
    const authorCount = 1 + (r.int(10) === 0 ? 1 : 0);
    const authors = Array.from({ length: authorCount }, () => `${r.pick(FIRST_NAMES)} ${r.pick(LAST_NAMES)}`).join(' & ');
    const words = Array.from({ length: 30 + r.int(90) }, word).join(' ');
    const comments = `<p>A book about <b>${word()}</b> and ${word()}.</p><p>${words}</p>`;
    const folder = `/library/${authors.split(' & ')[0]}/${title} (${id})`;
    const formatCount = 1 + r.int(3);
    const formats = [...new Set(Array.from({ length: formatCount }, () => r.pick(FORMATS)))].map(
      (format) => `${folder}/${title} - ${authors.split(' & ')[0]}.${format}`,
    );
    const created = base + r.int(10 * 365 * 86_400_000);
    yield {
      id,
      title,
      authors,
      comments,
      formats,
      isbn: `978${String(1_000_000_000 + id).slice(-10)}`,
      pubdate: r.int(20) === 0 ? '0101-01-01T00:00:00+00:00' : `${1900 + r.int(125)}-0${1 + r.int(9)}-1${r.int(9)}T00:00:00+00:00`,
      publisher: r.pick(PUBLISHERS),
      timestamp: new Date(created).toISOString().replace('.000Z', '+00:00'),
      last_modified: new Date(created + r.int(100 * 86_400_000)).toISOString().replace('.000Z', '+00:00'),
    };
  }
}

async function writeAll(file: string, lines: Iterable<string>) {
  const out = fs.createWriteStream(file);
  let pending = '';
  for (const line of lines) {
    pending += line;
    if (pending.length > 1 << 20) {
      if (!out.write(pending)) await once(out, 'drain');
      pending = '';
    }
  }
  out.end(pending);
  await once(out, 'finish');
}

/** `calibredb list --for-machine --fields all`: an indented list of objects, keys sorted. */
export async function writeCalibreJson(file: string, count: number) {
  function* lines() {
    yield '[\n';
    let first = true;
    for (const book of generateBooks(count)) {
      const record = {
        author_sort: book.authors,
        authors: book.authors,
        comments: book.comments,
        formats: book.formats,
        id: book.id,
        identifiers: { isbn: book.isbn },
        isbn: book.isbn,
        languages: [],
        last_modified: book.last_modified,
        pubdate: book.pubdate,
        publisher: book.publisher,
        series_index: 1.0,
        tags: [],
        timestamp: book.timestamp,
        title: book.title,
        uuid: `00000000-0000-4000-8000-${String(book.id).padStart(12, '0')}`,
      };
      yield `${first ? '' : ',\n'}${JSON.stringify(record, null, 2).replace(/^/gm, '  ')}`;
      first = false;
    }
    yield '\n]';
  }
  await writeAll(file, lines());
}

/** A change to this generator makes new files rather than reusing those an older one wrote. */
export const GENERATOR_VERSION = createHash('sha256').update(fs.readFileSync(import.meta.filename)).digest('hex').slice(0, 12);

/** The Calibre JSON file of `count` generated books in `folder`, written the first time it is asked for. */
export async function calibreJsonFile(folder: string, count: number): Promise<string> {
  const file = path.join(folder, `calibre-${count}-${GENERATOR_VERSION}.json`);
  if (!fs.existsSync(file)) {
    console.log(`  generating ${path.basename(file)}…`);
    fs.mkdirSync(folder, { recursive: true });
    await writeCalibreJson(`${file}.partial`, count);
    fs.renameSync(`${file}.partial`, file);
  }
  return file;
}
