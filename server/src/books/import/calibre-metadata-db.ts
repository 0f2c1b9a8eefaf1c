import { DatabaseSync } from 'node:sqlite';
import { calibreDate, calibreSeries, calibreStars, calibreTimestamp, chooseIdentifier, identifierRecord, mainPath } from './calibre-mapping.ts';
import { COVER_FILE } from '../library/library.files.ts';
import { checked, type ParsedRecord, unreadable } from './parsed-record.ts';

type BookRow = {
  id: number;
  title: string;
  path: string;
  timestamp: string | null;
  pubdate: string | null;
  last_modified: string | null;
  has_cover: number;
  series_index: number | null;
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
    // Calibre reads each list in its link table's order.
    const tags = db.prepare('select t.name from books_tags_link l join tags t on t.id = l.tag where l.book = ? order by l.id');
    const series = db.prepare('select s.name from books_series_link l join series s on s.id = l.series where l.book = ?');
    const rating = db.prepare('select r.rating from books_ratings_link l join ratings r on r.id = l.rating where l.book = ?');
    const languages = db.prepare(
      'select g.lang_code from books_languages_link l join languages g on g.id = l.lang_code where l.book = ? order by l.item_order, l.id',
    );
    let line = 0;
    for (const row of db.prepare('select id, title, path, timestamp, pubdate, last_modified, has_cover, series_index from books order by id').iterate()) {
      line++;
      const book = row as BookRow;
      const formats = (files.all(book.id) as Array<{ format: string; name: string }>).map(
        (file) => `${book.path}/${file.name}.${file.format.toLowerCase()}`,
      );
      const bookIdentifiers = (identifiers.all(book.id) as Array<{ type: string; val: string }>).map(
        (identifier): [string, string] => [identifier.type, identifier.val],
      );
      yield checked(line, {
        id: String(book.id),
        title: book.title ?? '',
        // Calibre stores a comma in an author's name as '|'.
        author: (authors.all(book.id) as Array<{ name: string }>).map((author) => author.name.replaceAll('|', ',')).join(' & '),
        identifier: chooseIdentifier(bookIdentifiers),
        publish_date: calibreDate(book.pubdate),
        publisher: (publisher.get(book.id) as { name: string } | undefined)?.name ?? '',
        created: calibreTimestamp(book.timestamp),
        updated: calibreTimestamp(book.last_modified),
        comment: (comment.get(book.id) as { text: string } | undefined)?.text ?? null,
        path: mainPath(formats, book.has_cover === 1 ? `${book.path}/${COVER_FILE}` : ''),
        formats,
        ...calibreSeries((series.get(book.id) as { name: string } | undefined)?.name, book.series_index),
        tags: (tags.all(book.id) as Array<{ name: string }>).map((tag) => tag.name),
        languages: (languages.all(book.id) as Array<{ lang_code: string }>).map((language) => language.lang_code),
        rating: calibreStars((rating.get(book.id) as { rating: number | null } | undefined)?.rating, 'tenths'),
        identifiers: identifierRecord(bookIdentifiers),
        has_cover: book.has_cover === 1,
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

/** How many books a library database holds, counted before a load reads them; null when it cannot be read (the load then says why). */
export function countCalibreBooks(file: string): number | null {
  try {
    const db = new DatabaseSync(file, { readOnly: true });
    try {
      return (db.prepare('select count(*) as count from books').get() as { count: number }).count;
    } finally {
      db.close();
    }
  } catch {
    return null;
  }
}
