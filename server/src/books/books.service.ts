import type { Readable } from 'node:stream';
import { LRUCache } from 'lru-cache';
import type { Book, BookQuery, CatalogueBook, IndexUploadReply } from '../../../contract/books.ts';
import { notFound } from '../errors.ts';
import type { Catalogue } from './catalogue.ts';
import { readIndexFile } from './import/read-index-file.ts';
import { searchTerms } from '../search/search-text.ts';

const REPORTED_ERRORS = 100;
/** Searches remembered per catalogue version; a few MB at most. */
const CACHED_SEARCHES = 2000;

type CatalogueResult = Awaited<ReturnType<Catalogue['search']>>;

export function createBooksService({ catalogue, tmpDir }: { catalogue: Catalogue; tmpDir: string }) {
  // The catalogue changes only when a load commits, and its broad searches (a lone common word)
  // cost the most and recur the most: a result is kept until the catalogue's version changes.
  const cache = new LRUCache<string, CatalogueResult>({ max: CACHED_SEARCHES });

  return {
    async search(query: BookQuery): Promise<{ total: number; books: Book[] }> {
      const question = {
        terms: searchTerms(query.keys),
        fields: [...query.fields].sort(),
        format: query.format,
        from: query.from,
        size: query.size,
      };
      const key = `${await catalogue.version()} ${JSON.stringify(question)}`;
      let result = cache.get(key);
      if (!result) {
        result = await catalogue.search(question);
        cache.set(key, result);
      }
      const { total, books } = result;
      return {
        total,
        books: books.map((book, position) => {
          const { comment, ...rest } = book;
          return { ...rest, index: query.from + position, ...(query.includeComment ? { comment } : {}) };
        }),
      };
    },

    async get(id: string): Promise<Book> {
      const book = await catalogue.get(id);
      if (!book) throw notFound('Book');
      return { ...book, index: 0 };
    },

    all(): AsyncIterable<CatalogueBook> {
      return catalogue.all();
    },

    /** Loads an index file in one transaction; a file that cannot be read throws and changes nothing. */
    async load(mode: 'update' | 'replace', file: Readable): Promise<IndexUploadReply> {
      return catalogue.load(mode, async (write) => {
        const reply: IndexUploadReply = { total_count: 0, error_count: 0, errors: [] };
        for await (const record of readIndexFile(file, tmpDir)) {
          reply.total_count++;
          if ('book' in record) {
            await write(record.book);
          } else {
            reply.error_count++;
            if (reply.errors.length < REPORTED_ERRORS) reply.errors.push({ line: record.line, message: record.error });
          }
        }
        return reply;
      });
    },
  };
}
export type BooksService = ReturnType<typeof createBooksService>;
