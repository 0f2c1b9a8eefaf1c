import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

const PAGE = 1000;
/** The settings key under which a load keeps its library folder (books/books.search.ts). */
const LIBRARY_FOLDER_SETTING = 'books_library_folder';

// A migration is a snapshot: the rule below is copied from books/library-folder.ts as it stood
// when this migration was written, so that a later change there leaves this one as it ran.

const isSeparator = (character: string | undefined) => character === '/' || character === '\\';

function lastSeparator(path: string, before: number): number {
  if (before <= 0) return -1;
  return Math.max(path.lastIndexOf('/', before - 1), path.lastIndexOf('\\', before - 1));
}

/** Calibre keeps a book's files in `<library>/<author>/<title> (<id>)/`; a file of any other shape lies in its own folder. */
function fileLibraryFolder(file: string, bookId: string): string {
  const name = lastSeparator(file, file.length);
  if (name < 0) return '';
  const bookFolder = lastSeparator(file, name);
  if (bookFolder >= 0 && file.slice(bookFolder + 1, name).endsWith(` (${bookId})`)) {
    const authorFolder = lastSeparator(file, bookFolder);
    return authorFolder < 0 ? '' : file.slice(0, authorFolder);
  }
  return file.slice(0, name);
}

/** The longest leading directory of both, whole folders only; '' when none. */
function commonFolder(a: string, b: string): string {
  const [shorter, longer] = a.length <= b.length ? [a, b] : [b, a];
  if (longer.startsWith(shorter) && (longer.length === shorter.length || isSeparator(longer[shorter.length]))) {
    return shorter;
  }
  let same = 0;
  while (same < shorter.length && shorter[same] === longer[same]) same += 1;
  const end = lastSeparator(shorter, same);
  return end <= 0 ? '' : shorter.slice(0, end);
}

/**
 * Each load keeps the catalogue's library folder (books/library-folder.ts), and an `update` load
 * starts from the one kept: a catalogue loaded before then has its folder found once, here, from
 * every stored book's files.
 */
export async function up(unknownDb: Kysely<unknown>): Promise<void> {
  const db = unknownDb as Kysely<Database>;
  let folder: string | undefined;
  for (let after = 0; folder !== ''; ) {
    const page = await db
      .selectFrom('books')
      .select(['seq', 'id', 'path', 'formats'])
      .where('seq', '>', after)
      .orderBy('seq')
      .limit(PAGE)
      .execute();
    for (const row of page) {
      const formats = JSON.parse(row.formats) as string[];
      for (const file of formats.length > 0 ? formats : [row.path]) {
        if (file === '' || folder === '') continue;
        const own = fileLibraryFolder(file, row.id);
        folder = folder === undefined ? own : commonFolder(folder, own);
      }
    }
    if (page.length < PAGE) break;
    after = page[page.length - 1]!.seq;
  }
  if (folder === undefined) {
    await db.deleteFrom('settings').where('key', '=', LIBRARY_FOLDER_SETTING).execute();
  } else {
    await db
      .insertInto('settings')
      .values({ key: LIBRARY_FOLDER_SETTING, value: folder })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: (eb) => eb.ref('excluded.value') }))
      .execute();
  }
}
