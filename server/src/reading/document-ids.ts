import path from 'node:path';
import type { Kysely } from 'kysely';
import type { CatalogueBook } from '../../../contract/books.ts';
import { formatOf } from '../books/library/book-formats.ts';
import { asciiFileName, downloadName } from '../books/library/download-name.ts';
import type { BooksService } from '../books/books.service.ts';
import type { LibraryFiles } from '../books/library/library.files.ts';
import type { Database } from '../storage/schema.ts';
import { settingsStore } from '../storage/settings.store.ts';
import { fileNameMd5, partialMd5 } from './partial-md5.ts';

/** The catalogue version the stored document ids were last worked out for. */
const WORKED_OUT_FOR = 'reading.document_ids_version';

/**
 * The names a device may keep a book's file under, for KOReader's "file name" id: the library's own
 * (a copy from Calibre's folder), the download's and the download's ASCII one, which KOReader's
 * OPDS browser takes from `Content-Disposition`.
 */
function namesOf(book: Pick<CatalogueBook, 'id' | 'title' | 'author'>, format: string, file: string): string[] {
  const download = downloadName(book, format);
  return [...new Set([path.basename(file), download, asciiFileName(download)])];
}

type Dependencies = {
  db: Kysely<Database>;
  books: Pick<BooksService, 'all' | 'version'>;
  files: Pick<LibraryFiles, 'file'>;
};

/**
 * KOReader's document ids of the library's files (its partial MD5 of each, the MD5 of each name),
 * kept in the database by book and format with the file's size and time. They are worked out again
 * when the catalogue has changed, before the next lookup, and only for the files that changed: a
 * file's id costs twelve reads of 1 KiB, an unchanged file one `stat`.
 */
export function createDocumentIds({ db, books, files }: Dependencies) {
  const settings = settingsStore(db);
  const readWorkedOutFor = settings.reader(WORKED_OUT_FOR);
  let freshFor: string | undefined;
  let working: Promise<void> | undefined;

  async function workOut(version: string): Promise<void> {
    const kept = new Map<string, { size: number; modifiedAt: number }>();
    for (const row of await db.selectFrom('book_document_ids').select(['book_id', 'format', 'size', 'modified_at']).execute()) {
      kept.set(`${row.book_id}\n${row.format}`, { size: Number(row.size), modifiedAt: Number(row.modified_at) });
    }
    const present = new Set<string>();
    for await (const book of books.all()) {
      for (const format of new Set(book.formats.map(formatOf).filter(Boolean))) {
        const file = await files.file(book, format);
        if (!file) continue;
        const key = `${book.id}\n${format}`;
        present.add(key);
        const modifiedAt = Math.trunc(file.mtimeMs);
        const before = kept.get(key);
        if (before?.size === file.size && before.modifiedAt === modifiedAt) continue;
        const documents = new Set([await partialMd5(file.path), ...namesOf(book, format, file.path).map(fileNameMd5)]);
        await db.transaction().execute(async (trx) => {
          await trx.deleteFrom('book_document_ids').where('book_id', '=', book.id).where('format', '=', format).execute();
          await trx
            .insertInto('book_document_ids')
            .values([...documents].map((document) => ({ book_id: book.id, format, document, size: file.size, modified_at: modifiedAt })))
            // Another server instance on the same database may be working them out too.
            .onConflict((oc) => oc.columns(['book_id', 'format', 'document']).doNothing())
            .execute();
        });
      }
    }
    for (const key of kept.keys()) {
      if (present.has(key)) continue;
      const [bookId, format] = key.split('\n') as [string, string];
      await db.deleteFrom('book_document_ids').where('book_id', '=', bookId).where('format', '=', format).execute();
    }
    await settings.write(WORKED_OUT_FOR, version);
  }

  /** Works the ids out for the catalogue as it is now, unless they are; one run at a time. */
  async function ensureFresh(): Promise<void> {
    const version = await books.version();
    if (freshFor === version) return;
    if ((await readWorkedOutFor()) === version) {
      freshFor = version;
      return;
    }
    if (working) {
      // Worked out for the version before, perhaps: asked again once it ends.
      await working;
      return ensureFresh();
    }
    working = workOut(version)
      .then(() => {
        freshFor = version;
      })
      .finally(() => {
        working = undefined;
      });
    await working;
  }

  return {
    ensureFresh,

    /** The book and format of the file KOReader gives this document id, by content or by name; null for none. */
    async fileOf(document: string): Promise<{ bookId: string; format: string } | null> {
      const lookup = () =>
        db
          .selectFrom('book_document_ids')
          .select(['book_id', 'format'])
          .where('document', '=', document)
          .orderBy('book_id')
          .orderBy('format')
          .limit(1)
          .executeTakeFirst();
      // Asked beside the catalogue's version, which is nearly always the one they were worked out for.
      const [version, found] = await Promise.all([books.version(), lookup()]);
      let row = found;
      if (version !== freshFor) {
        await ensureFresh();
        row = await lookup();
      }
      return row ? { bookId: row.book_id, format: row.format } : null;
    },
  };
}
export type DocumentIds = ReturnType<typeof createDocumentIds>;
