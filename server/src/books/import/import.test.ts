import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { calibreDate, calibreTimestamp, chooseIdentifier, mainPath } from './calibre-mapping.ts';
import { boundedLines } from './bounded-lines.ts';
import { jsonArrayElements } from './json-array-elements.ts';
import { MAX_RECORD_BYTES } from './parsed-record.ts';
import { detectKind } from './read-index-file.ts';

async function elements(chunks: string[]) {
  const found: Array<{ line: number; text: string }> = [];
  for await (const element of jsonArrayElements(Readable.from(chunks.map((chunk) => Buffer.from(chunk))))) found.push(element);
  return found;
}

describe('Calibre values', () => {
  it('takes the day in UTC, whatever zone the catalogue was written in', () => {
    expect(calibreDate('1990-05-10T00:00:00+00:00')).toBe('1990-05-10');
    expect(calibreDate('1990-05-09T20:00:00-04:00')).toBe('1990-05-10');
    expect(calibreDate('1990-05-10T09:00:00+09:00')).toBe('1990-05-10');
  });

  it('reads Calibre’s undefined date as no date, in any zone', () => {
    expect(calibreDate('0101-01-01T00:00:00+00:00')).toBeNull();
    expect(calibreDate('0100-12-31T19:03:58-04:56')).toBeNull();
    expect(calibreDate('')).toBeNull();
    expect(calibreDate('not a date')).toBeNull();
  });

  it('reads the timestamp spellings of the JSON and of metadata.db', () => {
    expect(calibreTimestamp('2026-11-21T23:25:29+00:00')).toBe('2026-11-21T23:25:29.000Z');
    expect(calibreTimestamp('2026-11-21 23:25:29.722879+00:00')).toBe('2026-11-21T23:25:29.722Z');
  });

  it('prefers the ISBN, else the first type in alphabetical order, whatever order they come in', () => {
    expect(chooseIdentifier([['amazon', '1'], ['isbn', '978']])).toBe('isbn:978');
    expect(chooseIdentifier([['ISBN', '978'], ['amazon', '1']])).toBe('isbn:978');
    expect(chooseIdentifier([['goodreads', '7'], ['amazon', '1']])).toBe('amazon:1');
    expect(chooseIdentifier([['amazon', '1'], ['goodreads', '7']])).toBe('amazon:1');
    expect(chooseIdentifier([['mobi-asin', 'B0'], ['doi', '', ], ['google', 'g1']])).toBe('google:g1');
    expect(chooseIdentifier([])).toBe('');
  });

  it('prefers the epub as the main file', () => {
    expect(mainPath(['a/b.pdf', 'a/b.EPUB'])).toBe('a/b.EPUB');
    expect(mainPath(['a/b.pdf', 'a/b.mobi'])).toBe('a/b.pdf');
    expect(mainPath([])).toBe('');
  });
});

describe('the objects of a JSON list', () => {
  it('finds each object with its line, across chunk boundaries, strings and escapes', async () => {
    const text = '[\n  {"a": "x}y", "b": [1, {"c": "\\"}"}]},\n  {"é": "ü"}\n]';
    for (let cut = 1; cut < text.length; cut++) {
      const found = await elements([text.slice(0, cut), text.slice(cut)]);
      expect(found.map((element) => JSON.parse(element.text)), `cut at ${cut}`).toEqual([
        { a: 'x}y', b: [1, { c: '"}' }] },
        { é: 'ü' },
      ]);
      expect(found.map((element) => element.line)).toEqual([2, 3]);
    }
  });

  it('tells escaped quotes from closing ones when the backslashes run across chunks', async () => {
    const records = [{ a: 'ends in a backslash \\', b: '}' }, { c: 'quote \\" and \\\\ then }' }, { d: 'é\\' }];
    const bytes = Buffer.from(`[${records.map((record) => JSON.stringify(record)).join(',\n')}]`);
    const read = async (chunks: Buffer[]) => {
      const found: unknown[] = [];
      for await (const element of jsonArrayElements(Readable.from(chunks))) found.push(JSON.parse(element.text));
      return found;
    };
    expect(await read([...bytes].map((byte) => Buffer.from([byte])))).toEqual(records);
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(await read([bytes.subarray(0, cut), bytes.subarray(cut)]), `cut at ${cut}`).toEqual(records);
    }
  });

  it('keeps a multi-byte character cut between chunks whole', async () => {
    const bytes = Buffer.from('[{"t": "Война"}]');
    const found: string[] = [];
    for await (const element of jsonArrayElements(Readable.from([bytes.subarray(0, 10), bytes.subarray(10)]))) found.push(element.text);
    expect(JSON.parse(found[0]!)).toEqual({ t: 'Война' });
  });

  it.each([
    ['{"a": 1}', /does not start with a JSON list/],
    ['[{"a": 1}', /ends before its list is closed/],
    ['[1, 2]', /something other than a book record/],
    ['[{"a": 1}] x', /unexpected content after the end/],
  ])('refuses %j', async (text, message) => {
    await expect(elements([text])).rejects.toThrow(message);
  });
});

describe('telling index files apart by content', () => {
  it.each([
    ['[\n {', 'calibre-json'],
    ['\uFEFF[{', 'calibre-json'],
    ['{"id": "1"}', 'books-jsonl'],
    ["<?xml version='1.0'?>", 'calibre-xml'],
    ['\uFEFFauthor_sort,authors', 'calibre-csv'],
    ['SQLite format 3\0', 'calibre-metadata-db'],
  ])('%j is %s', (head, kind) => {
    expect(detectKind(Buffer.from(head, head.startsWith('SQLite') ? 'latin1' : 'utf8'))).toBe(kind);
  });
});

describe('the lines of a JSON Lines file', () => {
  const lines = async (chunks: Buffer[]) => {
    const found: Array<{ line: number; text: string }> = [];
    for await (const line of boundedLines(Readable.from(chunks))) found.push(line);
    return found;
  };

  it('numbers each line, across chunk boundaries, with CRLF or LF and a last line without either', async () => {
    const bytes = Buffer.from('{"t": "Война"}\r\n\n{"b": 2}\n{"c": 3}');
    const expected = [
      { line: 1, text: '{"t": "Война"}' },
      { line: 2, text: '' },
      { line: 3, text: '{"b": 2}' },
      { line: 4, text: '{"c": 3}' },
    ];
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(await lines([bytes.subarray(0, cut), bytes.subarray(cut)]), `cut at ${cut}`).toEqual(expected);
    }
  });

  it('refuses a line over the record cap with a 413 before it ends', async () => {
    const long = Buffer.alloc(MAX_RECORD_BYTES + 1, 'x');
    await expect(lines([Buffer.from('{"a": 1}\n'), long])).rejects.toMatchObject({ statusCode: 413, message: expect.stringMatching(/line 2 is larger/) });
    await expect(lines([Buffer.from('{"a": 1}\n'), long, Buffer.from('\n')])).rejects.toMatchObject({ statusCode: 413 });
    expect(await lines([Buffer.alloc(MAX_RECORD_BYTES, 'x'), Buffer.from('\n')])).toHaveLength(1);
  });
});
