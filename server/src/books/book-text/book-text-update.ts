import fs from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { openBookTextFile } from './book-text-file.ts';
import { calibreTexts, calibreTextSources } from './calibre-text.ts';

/** Books whose text is read from Calibre's database in one statement: a few megabytes of text. */
const BATCH = 50;
/** How long a read waits for Calibre's write to end before the update fails and waits for the next change. */
const BUSY_TIMEOUT_MS = 2000;
// eslint-disable-next-line no-control-regex -- C0 controls but tab and line breaks
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g;

/**
 * Brings the file of the books' text (book-text-file.ts) up to date with Calibre's full-text
 * database: the books Calibre has no text of any more are removed, those whose chosen format or
 * text changed (its hash) read again, in one transaction, so that a search sees the text before or
 * after, never half. Calibre's database is read a batch at a time, each read short, so that Calibre
 * is never kept waiting for long. Without Calibre's database, the file ends up empty.
 * Synchronous: it runs on a thread of its own (book-text-update-worker.ts).
 */
export function updateBookText(calibreDb: string, file: string): { books: number; changed: number } {
  const ours = openBookTextFile(file);
  const calibre = fs.existsSync(calibreDb) ? new DatabaseSync(calibreDb, { readOnly: true, timeout: BUSY_TIMEOUT_MS }) : undefined;
  try {
    const wanted = calibre ? calibreTextSources(calibre) : new Map();
    const have = new Map(
      (ours.prepare('select book, format, text_hash from book_source').all() as Array<{ book: number; format: string; text_hash: string }>).map(
        (row) => [row.book, row],
      ),
    );
    const gone = [...have.keys()].filter((book) => !wanted.has(book));
    const changed = [...wanted.values()].filter((row) => {
      const kept = have.get(row.book);
      return !kept || kept.format !== row.format || kept.text_hash !== row.text_hash;
    });
    if (gone.length === 0 && changed.length === 0) return { books: wanted.size, changed: 0 };
    const removeWords = ours.prepare('delete from book_words where rowid = ?');
    const removeText = ours.prepare('delete from book_text where book = ?');
    const removeSource = ours.prepare('delete from book_source where book = ?');
    const addWords = ours.prepare('insert into book_words (rowid, text) values (?, ?)');
    const addText = ours.prepare('insert into book_text (book, text) values (?, ?)');
    const addSource = ours.prepare(
      `insert into book_source (book, format, text_hash) values (?, ?, ?)
       on conflict (book) do update set format = excluded.format, text_hash = excluded.text_hash`,
    );
    ours.exec('begin');
    try {
      for (const book of gone) {
        removeWords.run(book);
        removeText.run(book);
        removeSource.run(book);
      }
      for (let start = 0; start < changed.length; start += BATCH) {
        for (const row of calibreTexts(calibre!, changed.slice(start, start + BATCH).map(({ id }) => id))) {
          const text = row.searchable_text.replace(CONTROL, ' ');
          removeWords.run(row.book);
          removeText.run(row.book);
          addWords.run(row.book, text);
          addText.run(row.book, text);
          addSource.run(row.book, row.format, row.text_hash);
        }
      }
      ours.exec('commit');
    } catch (error) {
      ours.exec('rollback');
      throw error;
    }
    return { books: wanted.size, changed: gone.length + changed.length };
  } finally {
    calibre?.close();
    ours.close();
  }
}
