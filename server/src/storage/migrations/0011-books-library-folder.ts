import type { Kysely } from 'kysely';
import { libraryFolderWrite } from '../../books/books.search.ts';
import { libraryFolderTracker } from '../../books/library-folder.ts';
import type { Database } from '../schema.ts';

const PAGE = 1000;

/**
 * Each load keeps the catalogue's library folder (books/library-folder.ts), and an `update` load
 * starts from the one kept: a catalogue loaded before then has its folder found once, here, from
 * every stored book's files.
 */
export async function up(unknownDb: Kysely<unknown>): Promise<void> {
  const db = unknownDb as Kysely<Database>;
  const library = libraryFolderTracker(undefined);
  for (let after = 0; library.folder !== ''; ) {
    const page = await db
      .selectFrom('books')
      .select(['seq', 'id', 'path', 'formats'])
      .where('seq', '>', after)
      .orderBy('seq')
      .limit(PAGE)
      .execute();
    for (const row of page) library.add({ id: row.id, path: row.path, formats: JSON.parse(row.formats) as string[] });
    if (page.length < PAGE) break;
    after = page[page.length - 1]!.seq;
  }
  await libraryFolderWrite(db, library.folder).execute();
}
