import { type BookSort, MAX_BOOK_PAGE_SIZE } from '../../../../contract/books.ts';

/** The settings a search request is built from: the search settings as the slice keeps them. */
export interface BookSearchSettings {
  keys: string;
  fields: string;
  size: number;
  format: string;
  comment: boolean;
  sort: BookSort;
}

/** The format dropdown's choice that means every format (docs/behaviour/books.md: stored as empty). */
export const ALL_FORMATS = 'all';

/**
 * The search text as the slice stores it: '#' URL-encoded, commas and colons taken as spaces,
 * whitespace runs collapsed, the words joined with commas.
 */
export function searchKeys(text: string): string {
  return text
    .replaceAll('#', '%23')
    .replace(/[,:]/g, ' ')
    .split(/\s+/)
    .filter((word) => word !== '')
    .join(',');
}

/** The stored keys back as words for the search box, so that a reload shows the last search. */
export function searchText(keys: string): string {
  return keys
    .split(',')
    .filter((word) => word !== '')
    .map((word) => word.replaceAll('%23', '#'))
    .join(' ');
}

/** The chosen fields trimmed and joined with commas (docs/behaviour/books.md). */
export function joinFields(fields: readonly string[]): string {
  return fields
    .map((field) => field.trim())
    .filter((field) => field !== '')
    .join(',');
}

/** The stored fields as a list; none for an empty setting. */
export function splitFields(fields: string): string[] {
  return fields
    .split(',')
    .map((field) => field.trim())
    .filter((field) => field !== '');
}

/** The choice 'all' is stored as empty (docs/behaviour/books.md). */
export function formatSetting(choice: string): string {
  return choice === ALL_FORMATS ? '' : choice;
}

/**
 * 'entries' parsed as an integer. Anything that is not a positive integer leaves the
 * page size as it was (the settings show no validation message); more than the API serves is capped.
 */
export function parseEntries(text: string): number | null {
  const entries = Number.parseInt(text, 10);
  if (Number.isNaN(entries) || entries < 1) return null;
  return Math.min(entries, MAX_BOOK_PAGE_SIZE);
}

/**
 * `GET /api/books` for one page. The stored keys carry '#' as '%23', the stored, URL-encoded
 * form; they go out decoded here so that the query encoding does not encode them a second time
 * and the server reads '#' again.
 */
export function bookSearchPath(settings: BookSearchSettings, from: number): string {
  const query = new URLSearchParams({
    keys: settings.keys.replaceAll('%23', '#'),
    fields: settings.fields,
    from: String(from),
    size: String(settings.size),
    format: settings.format,
    includeComment: String(settings.comment),
  });
  // A search with words is ranked; only a listing is sorted, and by last update unless asked.
  if (settings.keys === '' && settings.sort !== 'updated') query.set('sort', settings.sort);
  return `/api/books?${query}`;
}
