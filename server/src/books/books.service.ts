import type { Readable } from 'node:stream';
import { LRUCache } from 'lru-cache';
import { type Book, type BookQuery, BookResults, type CatalogueBook, type IndexUploadReply } from '../../../contract/books.ts';
import { notFound } from '../errors.ts';
import { type Catalogue, type CatalogueQuery, catalogueQuery } from './books.search.ts';
import { readIndexFile } from './import/read-index-file.ts';
import { type ParsedRecord, unreadable } from './import/parsed-record.ts';

const REPORTED_ERRORS = 100;
/** Replies remembered, by their size in bytes. */
const CACHED_REPLY_BYTES = 32 * 1024 * 1024;

export function createBooksService({ catalogue, tmpDir, filesServed = false }: { catalogue: Catalogue; tmpDir: string; filesServed?: boolean }) {
  // The catalogue changes only when a load commits, and its broad searches (a lone common word)
  // cost the most and recur the most: a reply is kept, as the bytes sent, until the catalogue's
  // version changes. Sent again, it costs no query and no serialising.
  const replies = new LRUCache<string, Buffer>({ maxSize: CACHED_REPLY_BYTES, sizeCalculation: (reply) => reply.length });

  async function search(query: BookQuery, question: CatalogueQuery): Promise<BookResults> {
    const [{ total, books }, libraryFolder] = await Promise.all([catalogue.search(question), catalogue.libraryFolder()]);
    return {
      total,
      library_folder: libraryFolder,
      files_served: filesServed,
      books: books.map((book, position) => {
        const { comment, ...rest } = book;
        return { ...rest, index: query.from + position, ...(query.includeComment ? { comment } : {}) };
      }),
    };
  }

  return {
    /** The search's reply as JSON bytes, checked against its schema when it is made. */
    async searchReply(query: BookQuery): Promise<Buffer> {
      const question = catalogueQuery(query);
      const key = `${await catalogue.version()} ${query.includeComment} ${JSON.stringify(question)}`;
      let reply = replies.get(key);
      if (!reply) {
        reply = Buffer.from(JSON.stringify(BookResults.parse(await search(query, question))));
        replies.set(key, reply);
      }
      return reply;
    },

    async get(id: string): Promise<Book> {
      const book = await catalogue.get(id);
      if (!book) throw notFound('Book');
      return { ...book, index: 0 };
    },

    /** The books of these ids, in the order given; ids not in the catalogue are left out. */
    async getMany(ids: readonly string[]): Promise<CatalogueBook[]> {
      const byId = new Map((await catalogue.getMany(ids)).map((book) => [book.id, book]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    },

    /** Changes whenever a load commits: what is worked out from the whole catalogue is kept by it. */
    version(): Promise<string> {
      return catalogue.version();
    },

    all(): AsyncIterable<CatalogueBook> {
      return catalogue.all();
    },

    /** Loads an uploaded index file, whichever kind it is (see `loadRecords`). */
    load(mode: 'update' | 'replace', file: Readable): Promise<IndexUploadReply> {
      return loadRecords(mode, readIndexFile(file, tmpDir));
    },

    loadRecords,
  };

  /**
   * Loads the records of an index file or a library in one transaction; a file that cannot be read
   * throws and changes nothing. So does a file without a single book: whatever it is, it is not a
   * catalogue, and with `replace` it would empty the real one.
   */
  async function loadRecords(
    mode: 'update' | 'replace',
    records: AsyncIterable<ParsedRecord> | Iterable<ParsedRecord>,
  ): Promise<IndexUploadReply> {
    return catalogue.load(mode, async (write) => {
      const reply: IndexUploadReply = { total_count: 0, error_count: 0, errors: [] };
      let firstError = '';
      for await (const record of records) {
        reply.total_count++;
        if ('book' in record) {
          await write(record.book);
        } else {
          reply.error_count++;
          firstError ||= `line ${record.line}: ${record.error}`;
          if (reply.errors.length < REPORTED_ERRORS) reply.errors.push({ line: record.line, message: record.error });
        }
      }
      if (reply.total_count === 0) throw unreadable('it holds no book records');
      if (reply.error_count === reply.total_count) {
        throw unreadable(`none of its ${reply.total_count} records is a book (${firstError})`);
      }
      return reply;
    });
  }
}
export type BooksService = ReturnType<typeof createBooksService>;
