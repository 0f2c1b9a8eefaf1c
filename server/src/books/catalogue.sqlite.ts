import { DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler } from 'kysely';
import type { Database } from '../storage/schema.ts';
import { STORED_COLUMN_NAMES, storedRow } from './book-row.ts';
import { type CatalogueStore, catalogueReads, libraryFolderRead, libraryFolderWrite, newCatalogueVersion } from './books.search.ts';
import { libraryFolderTracker } from './library-folder.ts';
import { type CatalogueWriter, openCatalogueWriter, type WrittenBook } from './catalogue-writer.ts';

/** A book's row as the writer binds it: the id first, so that `?1` names it in every statement. */
const ROW_COLUMNS = ['id', ...STORED_COLUMN_NAMES.filter((column) => column !== 'id')] as const;

/** A load's statements (catalogue-writer.ts), each bound by position. */
const WRITES = {
  insert: `insert into books (${ROW_COLUMNS.join(', ')})
    values (${ROW_COLUMNS.map((_, index) => `?${index + 1}`).join(', ')})
    on conflict (id) do update set ${ROW_COLUMNS.slice(1).map((column) => `${column} = excluded.${column}`).join(', ')}`,
};

const writtenBook = (book: Parameters<typeof storedRow>[0]): WrittenBook => {
  const row = storedRow(book);
  return ROW_COLUMNS.map((column) => row[column]);
};

/** Compiles the statements the writer's thread runs on its own connection, which Kysely does not drive. */
const compiler = new Kysely<Database>({
  dialect: {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  },
});

export function createSqliteCatalogue(db: Kysely<Database>, file: string): CatalogueStore {
  return {
    ...catalogueReads(db, 'sqlite'),

    async close() {},

    /**
     * Through a writer thread with a connection of its own (catalogue-writer.ts), so that readers
     * go on reading the committed catalogue (WAL) while a long import writes, and the books are
     * prepared here while the ones before are inserted there.
     */
    async load(mode, load) {
      let writer: CatalogueWriter | undefined;
      let library = libraryFolderTracker(undefined);
      // Begun with the first book, so that a file refused before it costs no thread.
      const begin = async () => {
        writer = await openCatalogueWriter({
          file,
          start: mode === 'replace' ? 'delete from books' : undefined,
          read: mode === 'replace' ? undefined : libraryFolderRead(compiler).compile(),
          ...WRITES,
        });
        library = libraryFolderTracker(writer.value);
        return writer;
      };
      try {
        const result = await load(async (book) => {
          const begun = writer ?? (await begin());
          library.add(book);
          await begun.write(writtenBook(book));
        });
        const begun = writer ?? (await begin());
        await begun.commit([libraryFolderWrite(compiler, library.folder).compile(), newCatalogueVersion(compiler).compile()]);
        return result;
      } catch (error) {
        await writer?.rollback();
        throw error;
      }
    },
  };
}
