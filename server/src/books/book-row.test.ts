import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type BookRow, bookIdsOfReply, fromRow, replyBook, replyBookJson, replyPageJson } from './book-row.ts';

/** Any text a catalogue may hold: every code unit, lone surrogates and quotes included. */
const text = fc.string({ unit: 'binary', maxLength: 40 });
const maybe = <T>(value: fc.Arbitrary<T>) => fc.option(value, { nil: null });
const time = maybe(fc.integer({ min: -8.64e15, max: 8.64e15 }));
const number = maybe(fc.oneof(fc.double(), fc.integer(), fc.constantFrom(0.1 + 0.2, 1e21, -0, 5e-324)));

/** A stored book's row as a load writes it: lists and identifiers as JSON text (book-row.ts, `storedRow`). */
const row: fc.Arbitrary<BookRow> = fc.record({
  id: text,
  title: text,
  author: text,
  identifier: text,
  publish_date: text,
  publisher: text,
  created: time,
  updated: time,
  comment: maybe(text),
  path: text,
  formats: fc.array(text, { maxLength: 4 }).map((list) => JSON.stringify(list)),
  format_mask: fc.nat(255),
  series: maybe(text),
  series_index: number,
  tags: fc.array(text, { maxLength: 4 }).map((list) => JSON.stringify(list)),
  languages: fc.array(text, { maxLength: 3 }).map((list) => JSON.stringify(list)),
  rating: number,
  identifiers: fc.dictionary(text, text, { maxKeys: 3 }).map((map) => JSON.stringify(map)),
  has_cover: fc.constantFrom(0, 1),
});

describe('a book of a reply written from its row', () => {
  it('is the same bytes as the book read from the row and serialised', () => {
    fc.assert(
      fc.property(row, fc.nat(100_000), fc.boolean(), (stored, index, withComment) => {
        expect(replyBookJson(stored, index, withComment)).toBe(JSON.stringify(replyBook(fromRow(stored), index, withComment)));
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves the comment out unless it is asked for, and gives it as null when there is none', () => {
    const stored = fc.sample(row, { numRuns: 1, seed: 7 })[0]!;
    expect(JSON.parse(replyBookJson({ ...stored, comment: 'A tale' }, 3, false))).not.toHaveProperty('comment');
    expect(JSON.parse(replyBookJson({ ...stored, comment: null }, 3, true))).toMatchObject({ index: 3, comment: null });
  });
});

describe("the ids of a reply's books, read without parsing it", () => {
  it('are the ids its parsed books have, in their order, whatever the books hold', () => {
    // An identifier of type "id" and a title like a book's start, among the arbitrary ones.
    const tricky = row.map((stored) => ({ ...stored, identifiers: JSON.stringify({ id: stored.title }), title: `},{"id":"${stored.title}` }));
    fc.assert(
      fc.property(fc.array(fc.oneof(row, tricky), { maxLength: 12 }), fc.boolean(), (rows, withComment) => {
        const reply = `{"total":${rows.length},"library_folder":"","files_served":true,"books":${replyPageJson(rows, 0, withComment)}}`;
        const parsed = JSON.parse(reply) as { books: { id: string }[] };
        expect(bookIdsOfReply(reply)).toEqual(parsed.books.map((book) => book.id));
      }),
      { numRuns: 1000 },
    );
  });
});
