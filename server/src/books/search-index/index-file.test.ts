import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { searchWords } from '../../search/search-text.ts';
import { catalogueIndex, catalogueIndexBuilder, type CatalogueIndexData } from './catalogue-index.ts';
import { type BuiltFrom, readIndexFile, writeIndexFile } from './index-file.ts';

/** Across two segments (65,536 books each), so that every kind of container is written and read back. */
const BOOKS = 70_000;
const builtFrom: BuiltFrom = { version: 'a load', books: BOOKS, lastSeq: 2 * BOOKS };

function built(): CatalogueIndexData {
  const builder = catalogueIndexBuilder();
  for (let n = 1; n <= BOOKS; n++) {
    const title = `${n % 2 === 0 ? 'even' : 'odd'} volume ${n} ${n % 777 === 0 ? 'rare' : ''}`;
    builder.add({
      seq: 2 * n, title_words: searchWords(title).length, id: String(n), title, author: `Author ${n % 300}`,
      comment: n % 5 === 0 ? 'the sea and the river' : null, path: '', formats: '[]', format_mask: n % 3 === 0 ? 2 : 0, series: null, tags: '[]', identifiers: '{}', languages: '[]', publisher: '',
    });
  }
  return builder.finish();
}

describe('the index file', () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'index-file-'));
  const file = path.join(folder, 'book-search.index');
  afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));
  const data = built();
  writeIndexFile(file, builtFrom, data);
  const written = fs.readFileSync(file);

  it('gives back an index that answers every search as the one written, and what it was built from', () => {
    const read = readIndexFile(file);
    if (!('index' in read)) throw new Error(read.unusable);
    expect(read.builtFrom).toEqual(builtFrom);
    const [before, after] = [catalogueIndex(data), catalogueIndex(read.index)];
    const searches = [['even'], ['rare'], ['volume', '7'], ['author', '29'], ['sea', 'odd'], ['nothing']].map((terms) => ({
      terms, fields: ['title', 'author', 'comment'] as const, format: '' as const, from: 0, size: 20,
    }));
    for (const query of searches) {
      const search = { ...query, fields: [...query.fields] };
      expect(after.search(search, []), query.terms.join(' ')).toEqual(before.search(search, []));
    }
    expect(after.search({ terms: ['odd'], fields: ['title'], format: 'epub', from: 5, size: 5 }, [4])).toEqual(
      before.search({ terms: ['odd'], fields: ['title'], format: 'epub', from: 5, size: 5 }, [4]),
    );
  });

  it('is refused when a byte of it has changed, anywhere', () => {
    for (const at of [3, 40, 60, written.length >> 1, written.length - 1]) {
      const damaged = Buffer.from(written);
      damaged[at] = damaged[at]! ^ 0x01;
      fs.writeFileSync(file, damaged);
      expect(readIndexFile(file), `byte ${at}`).toEqual({ unusable: expect.stringMatching(/damaged|not an index file/) });
    }
  });

  it('is refused when it is cut short or missing', () => {
    for (const length of [0, 20, 100, written.length - 8]) {
      fs.writeFileSync(file, written.subarray(0, length));
      expect(readIndexFile(file), `${length} bytes`).toEqual({ unusable: expect.stringMatching(/damaged/) });
    }
    fs.rmSync(file);
    expect(readIndexFile(file)).toEqual({ unusable: 'there is no index file' });
  });

  it('leaves the file before in place until the new one is whole', () => {
    writeIndexFile(file, builtFrom, data);
    fs.writeFileSync(`${file}.partial`, 'a write cut short');
    expect(readIndexFile(file)).toMatchObject({ builtFrom });
    writeIndexFile(file, { ...builtFrom, version: 'the next load' }, data);
    expect(readIndexFile(file)).toMatchObject({ builtFrom: { version: 'the next load' } });
    expect(fs.existsSync(`${file}.partial`)).toBe(false);
  });
});
