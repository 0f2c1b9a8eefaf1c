/** The rules that every Calibre export shares when it becomes a Book (docs/behaviour/books.md). */

/**
 * Calibre's "no date" is the year 101 (UNDEFINED_DATE). The CSV and XML catalogues write dates in
 * the exporting machine's zone ("1990-05-09T20:00:00-04:00" for 10 May), so the day is taken in UTC.
 */
export function calibreDate(value: string | null | undefined): string | null {
  const time = calibreTime(value);
  return time === null ? null : new Date(time).toISOString().slice(0, 10);
}

/** Calibre's timestamps, in any of its spellings (`2024-05-01T10:00:00+00:00`, `2024-05-01 10:00:00.123456+00:00`), as ISO. */
export function calibreTimestamp(value: string | null | undefined): string | null {
  const time = calibreTime(value);
  return time === null ? null : new Date(time).toISOString();
}

// What the JSON export always writes: UTC, whole seconds.
const UTC_SECONDS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/;

function calibreTime(value: string | null | undefined): number | null {
  if (!value) return null;
  if (UTC_SECONDS.test(value)) {
    return value.startsWith('0101-') || value < '0102' ? null : Date.UTC(
      Number(value.slice(0, 4)), Number(value.slice(5, 7)) - 1, Number(value.slice(8, 10)),
      Number(value.slice(11, 13)), Number(value.slice(14, 16)), Number(value.slice(17, 19)),
    );
  }
  const time = Date.parse(value.trim().replace(' ', 'T').replace(/(\.\d{3})\d+/, '$1'));
  if (Number.isNaN(time) || new Date(time).getUTCFullYear() <= 101) return null;
  return time;
}

/**
 * The ISBN when there is one, else the identifier whose type comes first in alphabetical order,
 * as `type:value`. Never by position: the CSV and XML list a book's identifiers in the order of
 * Calibre's table rows, which differs from run to run, and the JSON sorts them.
 */
export function chooseIdentifier(identifiers: Array<[type: string, value: string]>): string {
  const usable = identifiers
    .filter(([type, value]) => type && value)
    .map(([type, value]): [string, string] => [type.toLowerCase(), value]);
  const isbn = usable.find(([type]) => type === 'isbn');
  const [first] = usable.toSorted(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const [type, value] = isbn ?? first ?? ['', ''];
  return type ? `${type}:${value}` : '';
}

/**
 * The main file: the epub when there is one, else the first. A book without a file but with a
 * cover (Calibre keeps it when the files are removed) has its folder instead, ending with a
 * separator (`Arthur Schnitzler/Traumnovelle (6)/`): the folder is where its cover is found, and no
 * other field of the catalogue tells it.
 */
export function mainPath(formats: string[], cover = ''): string {
  const folder = cover.slice(0, Math.max(cover.lastIndexOf('/'), cover.lastIndexOf('\\')) + 1);
  return formats.find((file) => file.toLowerCase().endsWith('.epub')) ?? formats[0] ?? folder;
}

export const joinAuthors = (authors: string[] | string | undefined): string =>
  Array.isArray(authors) ? authors.join(' & ') : (authors ?? '');

/** The `type:value,type:value` list of the CSV and XML catalogues. */
export function identifierList(value: string | undefined): Array<[type: string, value: string]> {
  return (value ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const colon = part.indexOf(':');
      return colon < 0 ? ['', part] : [part.slice(0, colon), part.slice(colon + 1)];
    });
}

/** Every identifier as `type` (lower case) to value, sorted by type; empty ones left out. */
export function identifierRecord(identifiers: Array<[type: string, value: string]>): Record<string, string> {
  const usable = identifiers
    .filter(([type, value]) => type && value)
    .map(([type, value]): [string, string] => [type.toLowerCase(), value]);
  return Object.fromEntries(usable.toSorted(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * A rating in stars, to the half. Calibre stores 0–10 (the JSON and metadata.db give that) and its
 * CSV and XML catalogues write stars; 0 is Calibre's "not rated".
 */
export function calibreStars(value: number | string | null | undefined, scale: 'tenths' | 'stars'): number | null {
  const number = typeof value === 'string' ? (value.trim() === '' ? Number.NaN : Number(value)) : (value ?? Number.NaN);
  if (!Number.isFinite(number) || number <= 0) return null;
  const stars = Math.round((scale === 'tenths' ? number / 2 : number) * 2) / 2;
  return Math.min(5, Math.max(0.5, stars));
}

/** The series and the book's place in it; Calibre writes an index (1.0) even without a series. */
export function calibreSeries(name: string | null | undefined, index: number | string | null | undefined) {
  const series = name?.trim() || null;
  const place = typeof index === 'string' ? Number(index) : index;
  return { series, series_index: series && typeof place === 'number' && Number.isFinite(place) ? place : null };
}

/** The `a, b` lists of the CSV catalogue (tags, languages). */
export const commaList = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
