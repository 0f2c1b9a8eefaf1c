import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bookTextSearch, openBookTextFile } from './book-text-file.ts';
import { updateBookText } from './book-text-update.ts';
import { CALIBRE_FULL_TEXT_DB } from './calibre-text.ts';

const FIXTURE_FULL_TEXT = path.join(import.meta.dirname, '../fixtures/library-full-text', CALIBRE_FULL_TEXT_DB);

describe("updating the books' text from Calibre's full-text database", () => {
  let work: string;
  let calibreDb: string;
  let file: string;
  beforeEach(() => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'organiser-book-text-update-'));
    calibreDb = path.join(work, CALIBRE_FULL_TEXT_DB);
    file = path.join(work, 'book-text.sqlite');
    fs.copyFileSync(FIXTURE_FULL_TEXT, calibreDb);
  });
  afterEach(() => fs.rmSync(work, { recursive: true, force: true }));

  /**
   * Calibre's database changed as calibre changes it. Its triggers feed calibre's own FTS tables,
   * whose tokenizer only calibre has: they go, and the rows are changed as calibre would.
   */
  const asCalibre = (change: (calibre: DatabaseSync) => void) => {
    const calibre = new DatabaseSync(calibreDb);
    for (const { name } of calibre.prepare(`select name from sqlite_master where type = 'trigger'`).all() as Array<{ name: string }>) {
      calibre.exec(`drop trigger "${name}"`);
    }
    change(calibre);
    calibre.close();
  };
  const sources = () => {
    const ours = openBookTextFile(file);
    try {
      return ours.prepare('select book, format from book_source order by book').all().map((row) => ({ ...row }));
    } finally {
      ours.close();
    }
  };
  const find = (...terms: string[]) => {
    const search = bookTextSearch(file)!;
    try {
      return search.find(terms).sort();
    } finally {
      search.close();
    }
  };

  it('reads one format of each book that has text, an e-book’s before a PDF’s', () => {
    expect(updateBookText(calibreDb, file)).toEqual({ books: 3, changed: 3 });
    expect(sources()).toEqual([
      { book: 1, format: 'EPUB' },
      { book: 2, format: 'AZW3' },
      { book: 3, format: 'EPUB' },
    ]);
    expect(find('discworld')).toEqual(['1']);
  });

  it('reads again only the books whose text changed, and drops those Calibre has no text of', () => {
    updateBookText(calibreDb, file);
    expect(updateBookText(calibreDb, file)).toEqual({ books: 3, changed: 0 });
    asCalibre((calibre) => {
      calibre.prepare(`update books_text set searchable_text = 'Rincewind and the Luggage', text_hash = 'new' where book = 2`).run();
      calibre.prepare('delete from books_text where book = 1').run();
    });
    expect(updateBookText(calibreDb, file)).toEqual({ books: 2, changed: 2 });
    expect(find('luggage')).toEqual(['2']);
    expect(find('organiser')).toEqual(['3']);
  });

  it('keeps the snippets’ marks out of the text', () => {
    asCalibre((calibre) => calibre.prepare(`update books_text set searchable_text = 'a \u0002marked\u0003 word', text_hash = 'new' where book = 3`).run());
    updateBookText(calibreDb, file);
    const search = bookTextSearch(file)!;
    expect(search.snippets(['word'], ['3'])).toEqual({ '3': 'a marked \u0002word\u0003' });
    search.close();
  });

  it('finds the words of a long text wherever they are, and shows the passage that holds them', () => {
    const long = `${'Rain falls on the plain. '.repeat(400)}The albatross came back. ${'Rain falls on the plain. '.repeat(400)}`;
    asCalibre((calibre) => calibre.prepare('update books_text set searchable_text = ?, text_hash = ? where book = 3').run(long, 'long'));
    updateBookText(calibreDb, file);
    expect(find('albatross', 'rain')).toEqual(['3']);
    const search = bookTextSearch(file)!;
    expect(search.snippets(['albatross'], ['3'])['3']).toContain('The \u0002albatross\u0003 came back');
    search.close();
  });

  it('ends up empty without Calibre’s database', () => {
    updateBookText(calibreDb, file);
    fs.rmSync(calibreDb);
    expect(updateBookText(calibreDb, file)).toEqual({ books: 0, changed: 3 });
    expect(find('organiser')).toEqual([]);
  });
});
