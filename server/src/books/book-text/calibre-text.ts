import type { DatabaseSync } from 'node:sqlite';

/** Calibre's full-text database (calibre 6 and later), beside `metadata.db` once its full-text indexing is on. */
export const CALIBRE_FULL_TEXT_DB = 'full-text-search.db';

/** One format's text as Calibre keeps it (`books_text`), without the text itself. */
export type CalibreTextRow = { id: number; book: number; format: string; text_hash: string };

/**
 * The formats whose text is read first, when a book has several: an e-book's text follows its
 * paragraphs, a PDF's its lines and pages. Any other format comes after these, A–Z.
 */
const FORMAT_ORDER = ['EPUB', 'KEPUB', 'AZW3', 'MOBI', 'DOCX', 'FB2', 'HTMLZ', 'TXT', 'RTF', 'PDF'];
const formatRank = (format: string) => {
  const rank = FORMAT_ORDER.indexOf(format.toUpperCase());
  return rank < 0 ? FORMAT_ORDER.length : rank;
};

/**
 * The one format of each book whose text is searched. Calibre keeps a row per format, mostly the
 * same words laid out differently: one of them is enough to find the book, and it halves the file
 * of a library that keeps both EPUB and PDF. A format Calibre could not read (empty text) is skipped.
 */
export function calibreTextSources(calibre: DatabaseSync): Map<number, CalibreTextRow> {
  const rows = calibre
    .prepare(`select id, book, format, text_hash from books_text where text_size > 0 and searchable_text != ''`)
    .all() as CalibreTextRow[];
  const chosen = new Map<number, CalibreTextRow>();
  for (const row of rows) {
    const other = chosen.get(row.book);
    const better =
      !other || formatRank(row.format) < formatRank(other.format) || (formatRank(row.format) === formatRank(other.format) && row.format < other.format);
    if (better) chosen.set(row.book, row);
  }
  return chosen;
}

/** The text of these rows of `books_text`, read in one statement with the hash it has now. */
export function calibreTexts(calibre: DatabaseSync, ids: readonly number[]) {
  return calibre
    .prepare('select book, format, text_hash, searchable_text from books_text where id in (select value from json_each(?))')
    .all(JSON.stringify(ids)) as Array<{ book: number; format: string; text_hash: string; searchable_text: string }>;
}
