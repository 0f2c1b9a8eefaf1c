import { DatabaseSync } from 'node:sqlite';
import { calibreDate, calibreTimestamp, chooseIdentifier, mainPath } from './calibre-mapping.ts';
import { checked, type ParsedRecord, unreadable } from './parsed-record.ts';

type BookRow = {
  id: number;
  title: string;
  path: string;
  timestamp: string | null;
  pubdate: string | null;
  last_modified: string | null;
};

/**
 * Calibre's own `metadata.db`. Only base tables are read: its views and triggers call SQL
 * functions that only Calibre defines (title_sort, uuid4…), and the file is opened read-only.
 */
export function* parseCalibreMetadataDb(file: string): Generator<ParsedRecord> {
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(file, { readOnly: true });
    db.prepare('select id, title, path from books limit 1').all();
  } catch (error) {
    throw unreadable(`it is not a Calibre library database (${(error as Error).message})`);
  }
  try {
    const authors = db.prepare(
      'select a.name from books_authors_link l join authors a on a.id = l.author where l.book = ? order by l.id',
    );
    const publisher = db.prepare(
      'select p.name from books_publishers_link l join publishers p on p.id = l.publisher where l.book = ?',
    );
    const comment = db.prepare('select text from comments where book = ?');
    const identifiers = db.prepare('select type, val from identifiers where book = ? order by id');
    const files = db.prepare('select format, name from data where book = ? order by id');
    let line = 0;
    for (const row of db.prepare('select id, title, path, timestamp, pubdate, last_modified from books order by id').iterate()) {
      line++;
      const book = row as BookRow;
      const formats = (files.all(book.id) as Array<{ format: string; name: string }>).map(
        (file) => `${book.path}/${file.name}.${file.format.toLowerCase()}`,
      );
      yield checked(line, {
        id: String(book.id),
        title: book.title ?? '',
        // Calibre stores a comma in an author's name as '|'.
        author: (authors.all(book.id) as Array<{ name: string }>).map((author) => author.name.replaceAll('|', ',')).join(' & '),
        identifier: chooseIdentifier(
          (identifiers.all(book.id) as Array<{ type: string; val: string }>).map((identifier) => [identifier.type, identifier.val]),
        ),
        publish_date: calibreDate(book.pubdate),
        publisher: (publisher.get(book.id) as { name: string } | undefined)?.name ?? '',
        created: calibreTimestamp(book.timestamp),
        updated: calibreTimestamp(book.last_modified),
        comment: (comment.get(book.id) as { text: string } | undefined)?.text ?? null,
        path: mainPath(formats),
        formats,
      });
    }
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ERR_SQLITE_ERROR') {
      throw unreadable(`the Calibre library database is damaged or of another shape (${error.message})`);
    }
    throw error;
  } finally {
    db.close();
  }
}
