import { BOOKMARK_LIMITS, BookmarkInput } from '../../../contract/bookmarks.ts';
import { stripDeep } from '../control-characters.ts';
import type { NewBookmark } from './bookmarks.store.ts';
import type { FileBookmark } from './netscape-file-reader.ts';

/** What an import makes of one link of a file. */
export type FileEntryOutcome =
  | { kind: 'skipped'; reason: string }
  | { kind: 'invalid'; message: string }
  | { kind: 'kept'; bookmark: NewBookmark; warnings: string[]; shortened: boolean; undated: boolean };

/** A keyword is a word typed in the address bar; longer ones are not keywords a browser wrote. */
const KEYWORD_LIMIT = 100;

/** The dates the API accepts (docs/behaviour/bad-input-and-limits.md). */
const EARLIEST = Date.UTC(1900, 0, 1);
const LATEST = Date.UTC(2200, 0, 1);

/**
 * Epoch ms of a file's date. Browsers write seconds; some tools write milliseconds, Firefox's
 * own PRTime is in microseconds, and some write a fraction: the first unit that puts the date in
 * 1900–2200 is taken. An ISO date is read too. `0`, which Chrome writes for "never", is no date.
 */
export function fileTime(value: string | undefined): number | undefined {
  const text = value?.trim() ?? '';
  if (/^-?\d+(?:\.\d+)?$/.test(text)) {
    const number = Number(text);
    if (number === 0) return undefined;
    return [number * 1000, number, number / 1000].map(Math.floor).find((ms) => ms >= EARLIEST && ms < LATEST);
  }
  const ms = /^\d{4}-\d{2}-\d{2}/.test(text) ? Date.parse(text) : Number.NaN;
  return ms >= EARLIEST && ms < LATEST ? ms : undefined;
}

/** The text cut to `max` UTF-16 units, never between the two halves of a character. */
function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = /[\uD800-\uDBFF]/.test(text.charAt(max - 1)) ? max - 1 : max;
  return text.slice(0, cut).trimEnd();
}

/** Why a link that is not a web address is skipped, naming its scheme (`javascript:`, `place:`, `file:`). */
function skippedScheme(link: string): string {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(link)?.[1]?.toLowerCase();
  if (scheme === undefined) return link === '' ? 'no link' : 'not a web link (no http: or https:)';
  return `not a web link (${scheme}:)`;
}

/**
 * A link of a file as the owner's bookmark. Only http(s) links are kept. A field over its limit
 * is shortened rather than losing the whole bookmark (and every bookmark of a long-named folder);
 * a link over its limit cannot be, and is reported. The import time stands in only for dates
 * that cannot be read at all.
 */
export function fileEntryOutcome(fileEntry: FileBookmark, now: number): FileEntryOutcome {
  // A file is an edge too (docs/behaviour/bad-input-and-limits.md): its text loses control characters as a request's does.
  const entry = stripDeep(fileEntry) as FileBookmark;
  if (!/^https?:\/\//i.test(entry.link)) return { kind: 'skipped', reason: skippedScheme(entry.link) };
  const warnings: string[] = [];
  const title = shorten(entry.title, BOOKMARK_LIMITS.title);
  if (title !== entry.title) warnings.push(`title: shortened to ${BOOKMARK_LIMITS.title} characters`);
  const note = shorten(entry.note, BOOKMARK_LIMITS.note);
  if (note !== entry.note) warnings.push(`note: shortened to ${BOOKMARK_LIMITS.note} characters`);
  const fileTags = [...entry.folders, ...entry.tags];
  let tags = [...new Set(fileTags.map((tag) => shorten(tag, BOOKMARK_LIMITS.tag)))];
  if (fileTags.some((tag) => tag.length > BOOKMARK_LIMITS.tag)) warnings.push(`tags: shortened to ${BOOKMARK_LIMITS.tag} characters each`);
  if (tags.length > BOOKMARK_LIMITS.tags) {
    tags = tags.slice(0, BOOKMARK_LIMITS.tags);
    warnings.push(`tags: the first ${BOOKMARK_LIMITS.tags} kept`);
  }
  const parsed = BookmarkInput.safeParse({ title: title || shorten(entry.link, BOOKMARK_LIMITS.title), link: entry.link, tags, note });
  if (!parsed.success) {
    return { kind: 'invalid', message: parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ') };
  }
  const shortened = warnings.length > 0;
  const added = fileTime(entry.added);
  const modified = fileTime(entry.modified);
  const undated = added === undefined && modified === undefined;
  if (undated) warnings.push('ADD_DATE and LAST_MODIFIED: no date could be read, dated at the import');
  const folder = entry.folders.slice(0, BOOKMARK_LIMITS.tags).map((name) => shorten(name, BOOKMARK_LIMITS.tag));
  const keyword = shorten(entry.keyword, KEYWORD_LIMIT) || undefined;
  const bookmark = {
    ...parsed.data,
    createDate: added ?? modified ?? now,
    updateDate: modified ?? added ?? now,
    place: { root: entry.root, folder, keyword },
    // A browser's file has no TOREAD: its links are references, not a reading list (decision 0042).
    state: entry.toRead ? ('unread' as const) : ('read' as const),
  };
  return { kind: 'kept', bookmark, warnings, shortened, undated };
}
