import type { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { LRUCache } from 'lru-cache';
import { type Book, type BookFacet, type BookQuery, type BrowseEntry, type BrowseReply, type CatalogueBook, type IndexUploadReply } from '../../../contract/books.ts';
import { notFound } from '../errors.ts';
import { letterOf } from './book-facets.ts';

// The filing of names, for the OPDS catalogue's shelves too.
export { authorsOf, filingName, letterOf } from './book-facets.ts';
import type { BookText } from './book-text/book-text.ts';
import { type Catalogue, catalogueQuery } from './books.search.ts';
import type { CatalogueQuery } from './catalogue-query.ts';
import { type CatalogueLoads, LoadCancelled, type LoadTracker } from './catalogue-loads.ts';
import { countCalibreBooks, parseCalibreMetadataDb } from './import/calibre-metadata-db.ts';
import { readIndexFile } from './import/read-index-file.ts';
import { type ParsedRecord, unreadable } from './import/parsed-record.ts';
import { readSpooledUpload, spoolUpload } from './import/spooled-upload.ts';

const REPORTED_ERRORS = 100;
/**
 * The heap the kept replies may take: 350 to 1,600 first pages (5 to 23 KB), more than a household
 * repeats between two loads.
 */
const KEPT_REPLY_BYTES = 8 * 1024 * 1024;
// eslint-disable-next-line no-control-regex -- Latin-1, NUL included
const BEYOND_LATIN1 = /[^\u0000-\u00ff]/;
/**
 * The heap a kept reply takes: V8 keeps a string of Latin-1 characters in a byte each, any other in
 * two. A page with a curly quote or a name in another script is two bytes a character: counted by
 * its length, the kept replies held twice what they were allowed.
 */
const heapBytes = (reply: string) => (BEYOND_LATIN1.test(reply) ? 2 : 1) * reply.length;
/** The searches asked once lately, by their key alone: a reply is kept when its search is asked again. */
const SEEN_SEARCHES = 8192;
/**
 * A library database is read synchronously, and SQLite's writes are too: every so many records a
 * load lets the event loop turn, so that searches, progress and a cancel get their turn.
 */
const RECORDS_PER_TURN = 500;

export type UploadOptions = {
  /** The request's announced size: the bytes bar's end. */
  totalBytes: number | null;
  /** Aborts when the client goes away before the file has arrived: the load is cancelled. */
  requestGone: AbortSignal;
};

export function createBooksService({
  catalogue,
  tmpDir,
  loads,
  filesServed = false,
  bookText,
  keptReplyBytes = KEPT_REPLY_BYTES,
}: {
  catalogue: Catalogue;
  tmpDir: string;
  loads: CatalogueLoads;
  filesServed?: boolean;
  /** The books' text (book-text/), when the catalogue follows a Calibre library. */
  bookText?: Pick<BookText, 'searchable' | 'version'>;
  keptReplyBytes?: number;
}) {
  // The catalogue changes only when a load commits, and its broad searches (a lone common word)
  // cost the most and recur the most: a reply is kept, as the JSON sent, until the catalogue's
  // version changes. Sent again, it costs no query and no serialising. Kept as a string, on the
  // heap: as bytes, each reply was a block of malloc's, and the blocks kept among those evicted
  // pinned the main thread's malloc heap long after a minute of searches.
  const replies = new LRUCache<string, string>({ maxSize: keptReplyBytes, sizeCalculation: heapBytes });
  // Kept from the second time it is asked: searches asked once (most of a stream of typed ones)
  // then neither push the repeated ones out nor each hold a page until they are evicted.
  const seen = new LRUCache<string, true>({ max: SEEN_SEARCHES });

  // A load writes the library folder with the catalogue's new version: it is read once a version
  // rather than beside every search.
  let folderOf: { version: string; folder: Promise<string> } | undefined;
  const libraryFolderAt = (version: string) => {
    if (folderOf?.version !== version) {
      const folder = catalogue.libraryFolder();
      folderOf = { version, folder };
      folder.catch(() => {
        if (folderOf?.folder === folder) folderOf = undefined;
      });
    }
    return folderOf.folder;
  };

  // A facet's values are worked out once a catalogue version (one grouped query), filed by letter.
  type Filed = { letters: BrowseReply['letters']; byLetter: Map<string, BrowseEntry[]> };
  const facets = new Map<BookFacet, { version: string; filed: Promise<Filed> }>();
  const filedFacet = (facet: BookFacet, version: string) => {
    const kept = facets.get(facet);
    if (kept?.version === version) return kept.filed;
    const filed = catalogue.facet(facet).then((entries) => {
      const byLetter = new Map<string, BrowseEntry[]>();
      for (const entry of entries) {
        const letter = letterOf(entry.name, facet);
        const group = byLetter.get(letter);
        if (group) group.push(entry);
        else byLetter.set(letter, [entry]);
      }
      const letters = [...byLetter]
        .map(([letter, values]) => ({ letter, values: values.length }))
        .sort((a, b) => (a.letter === '#' ? 1 : b.letter === '#' ? -1 : a.letter.localeCompare(b.letter)));
      return { letters, byLetter };
    });
    facets.set(facet, { version, filed });
    filed.catch(() => {
      if (facets.get(facet)?.filed === filed) facets.delete(facet);
    });
    return filed;
  };

  /** The reply's JSON, keys in the contract's order: its books come written (`Catalogue.searchPage`). */
  async function search(question: CatalogueQuery, version: string): Promise<string> {
    const [{ total, page, snippets }, libraryFolder] = await Promise.all([catalogue.searchPage(question), libraryFolderAt(version)]);
    const text = `"text_searchable":${bookText?.searchable() ?? false},"snippets":${JSON.stringify(snippets ?? {})}`;
    return `{"total":${total},"library_folder":${JSON.stringify(libraryFolder)},"files_served":${filesServed},${text},"books":${page}}`;
  }

  return {
    /**
     * The search's reply as JSON. It is the contract's reply and not parsed by it again: every
     * book is written by book-row.ts (`replyBook`, `replyBookJson`), and parsing ten books with their
     * fields was a tenth of the main thread's time under a load of searches.
     */
    async searchReply(query: BookQuery): Promise<string> {
      const question = catalogueQuery(query);
      const version = await catalogue.version();
      // The books' text changes apart from the catalogue: whether it is searched shows in every reply.
      const key = `${version} ${bookText?.version() ?? 0} ${bookText?.searchable() ?? false} ${JSON.stringify(question)}`;
      let reply = replies.get(key);
      if (!reply) {
        reply = await search(question, version);
        if (seen.has(key)) replies.set(key, reply);
        else seen.set(key, true);
      }
      return reply;
    },

    /** A facet's values that start with `letter` (the first letter that has any when empty), with their counts. */
    async browse(facet: BookFacet, letter: string): Promise<BrowseReply> {
      const { letters, byLetter } = await filedFacet(facet, await catalogue.version());
      const shown = letter || (letters[0]?.letter ?? '');
      return { facet, letters, letter: shown, entries: byLetter.get(shown) ?? [] };
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

    /** The folder every book's files lie in, as a search reply gives it (`library_folder`). */
    async libraryFolder(): Promise<string> {
      return libraryFolderAt(await catalogue.version());
    },

    /** Changes whenever a load commits: what is worked out from the whole catalogue is kept by it. */
    version(): Promise<string> {
      return catalogue.version();
    },

    all(): AsyncIterable<CatalogueBook> {
      return catalogue.all();
    },

    /**
     * An index upload, tracked (issue 18): its file is first received whole into `tmpDir`, its
     * bytes counted, then read from there, its records counted. A client gone while the file
     * arrives cancels it; once the file is in, the load goes on without the request (a reload
     * of the page must not stop it), and only a cancel (`loads.cancel`) stops it.
     */
    async upload(mode: 'update' | 'replace', file: Readable, { totalBytes, requestGone }: UploadOptions): Promise<IndexUploadReply> {
      const tracker = await loads.begin('upload', mode, totalBytes);
      try {
        const spooled = await spoolUpload(file, tmpDir, {
          signal: AbortSignal.any([tracker.signal, requestGone]),
          received: tracker.received,
        });
        try {
          tracker.phase('reading');
          const reply = await loadRecords(mode, readIndexFile(readSpooledUpload(spooled, tracker.readFrom), tmpDir), tracker);
          await tracker.done(reply);
          return reply;
        } finally {
          spooled.remove();
        }
      } catch (error) {
        const cancelled = requestGone.aborted || tracker.signal.aborted;
        await tracker.ended(cancelled ? new LoadCancelled() : error);
        throw cancelled ? new LoadCancelled() : error;
      }
    },

    /** A Calibre library's `metadata.db` (a snapshot of it), tracked, as a `replace`. */
    async loadLibrary(metadataDb: string): Promise<IndexUploadReply> {
      const tracker = await loads.begin('library', 'replace', null);
      try {
        tracker.expect(countCalibreBooks(metadataDb));
        const reply = await loadRecords('replace', parseCalibreMetadataDb(metadataDb), tracker);
        await tracker.done(reply);
        return reply;
      } catch (error) {
        await tracker.ended(error);
        throw error;
      }
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
    tracker?: LoadTracker,
  ): Promise<IndexUploadReply> {
    return catalogue.load(mode, async (write) => {
      const reply: IndexUploadReply = { total_count: 0, error_count: 0, errors: [] };
      let firstError = '';
      for await (const record of records) {
        if (tracker?.signal.aborted) throw new LoadCancelled();
        reply.total_count++;
        tracker?.record('book' in record);
        if (reply.total_count % RECORDS_PER_TURN === 0) await nextTurn();
        if ('book' in record) {
          await write(record.book);
          tracker?.wrote();
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
      if (tracker?.signal.aborted) throw new LoadCancelled();
      tracker?.phase('writing');
      return reply;
    });
  }
}
export type BooksService = ReturnType<typeof createBooksService>;
