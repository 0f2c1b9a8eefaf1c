import v8 from 'node:v8';
import { setImmediate } from 'node:timers/promises';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { random } from '../../../../bench/books/generate-catalogue.ts';
import { searchWords } from '../../search/search-text.ts';
import { catalogueIndex, catalogueIndexBuilder, type IndexedRow } from './catalogue-index.ts';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const BOOKS = 100_000;
/**
 * What the index of this catalogue may cost a book, heap and typed arrays together, once built:
 * measured 57.5–57.7 bytes. With every list of two bytes a book (none packed) it cost 64; with its
 * words as JavaScript strings and its containers chained per word, 119.
 */
const MAX_BYTES_PER_BOOK = 61;

/**
 * Live memory of this thread after full collections: its heap and the typed arrays' bytes outside
 * it. The arrays' memory is swept after a collection, not during it: the second one counts it.
 */
async function liveBytes() {
  gc();
  await setImmediate();
  gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

/**
 * A calibre library's paths name each book's folder with its id ("Author/Title (123)/"), so its
 * file paths hold a word of their own for every book: at a million books, a million words. The
 * other fields reuse a small vocabulary.
 */
function* books(): Generator<IndexedRow> {
  const r = random(16);
  const vocabulary = Array.from({ length: 3000 }, (_, n) => `w${n.toString(36)}`);
  for (let seq = 1; seq <= BOOKS; seq++) {
    const title = `${r.pick(vocabulary)} ${r.pick(vocabulary)}`;
    const author = `A${r.int(20)} B${r.int(20)}`;
    yield {
      seq,
      title_words: searchWords(title).length,
      id: String(seq),
      title,
      author,
      comment: Array.from({ length: 6 }, () => r.pick(vocabulary)).join(' '),
      path: '',
      formats: JSON.stringify([`/library/${author}/${title} (${seq})/${title} - ${author}.epub`]),
      format_mask: 2,
      series: null,
      tags: '[]',
      identifiers: '{}', languages: '[]', publisher: '',
    };
  }
}

describe('the word index in memory', () => {
  it('costs a few tens of bytes a book once built, a word of its own for every book included', async () => {
    const before = await liveBytes();
    const builder = catalogueIndexBuilder();
    for (const row of books()) builder.add(row);
    const index = catalogueIndex(builder.finish());
    const perBook = (await liveBytes() - before) / BOOKS;
    expect(index.search({ terms: ['77777'], fields: ['file_path'], format: '', from: 0, size: 5 }, []).total).toBe(1);
    expect(perBook).toBeLessThan(MAX_BYTES_PER_BOOK);
  }, 60_000);
});
