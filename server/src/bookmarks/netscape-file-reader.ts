import { Parser } from 'htmlparser2';
import { AppError } from '../errors.ts';

/** A link as a browser's bookmarks file holds it, before any validation. */
export type FileBookmark = {
  line: number;
  title: string;
  link: string;
  /** Its folders (outermost first), then its TAGS. */
  tags: string[];
  note: string;
  /** Epoch ms, when the file gives them. */
  added: number | undefined;
  modified: number | undefined;
};

/**
 * Browsers write seconds; a few tools write milliseconds or (Firefox's own PRTime) microseconds.
 * Anything before 1990 or unreadable is taken as absent.
 */
function epochMs(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d{1,17}$/.test(value)) return undefined;
  const number = Number(value);
  const ms = number > 1e14 ? number / 1000 : number > 1e11 ? number : number * 1000;
  return ms >= Date.UTC(1990, 0, 1) ? Math.floor(ms) : undefined;
}

/** The browsers' root folders hold everything; they are not topics, so they give no tag. */
const ROOT_FOLDER_MARKS = ['personal_toolbar_folder', 'unfiled_bookmarks_folder'];

/**
 * Reads the Netscape bookmark file that Firefox, Chrome, Edge and Safari export: `<DT><H3>` opens
 * a folder whose `<DL>` holds its links, `<DT><A HREF ADD_DATE LAST_MODIFIED TAGS>` is a link and
 * a `<DD>` after it its description. The format is HTML that never closes its `<DT>`s, so it is
 * read as a stream of tags rather than as a tree.
 */
export function readNetscapeFile(text: string): FileBookmark[] {
  if (!/^\s*(?:\uFEFF)?<!DOCTYPE\s+NETSCAPE-Bookmark-file-1>/i.test(text)) {
    throw new AppError(400, 'This is not a browser bookmarks file: it must start with <!DOCTYPE NETSCAPE-Bookmark-file-1>');
  }
  const bookmarks: FileBookmark[] = [];
  const folders: Array<string | null> = [];
  let pendingFolder: string | null = null;
  let folderTitle: { text: string; root: boolean } | null = null;
  let link: FileBookmark | null = null;
  let note: FileBookmark | null = null;
  let line = 1;
  let counted = 0;
  const lineAt = (index: number) => {
    for (; counted < index; counted++) if (text.charCodeAt(counted) === 10) line++;
    return line;
  };

  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name !== 'dd') note = null;
        if (name === 'h3') {
          folderTitle = { text: '', root: ROOT_FOLDER_MARKS.some((mark) => mark in attributes) };
        } else if (name === 'dl') {
          folders.push(pendingFolder);
          pendingFolder = null;
        } else if (name === 'a') {
          link = {
            line: lineAt(parser.startIndex),
            title: '',
            link: (attributes.href ?? '').trim(),
            tags: [...folders.filter((folder) => folder !== null), ...(attributes.tags ?? '').split(',')],
            note: '',
            added: epochMs(attributes.add_date),
            modified: epochMs(attributes.last_modified),
          };
        } else if (name === 'dd') {
          note = bookmarks.at(-1) ?? null;
        }
      },
      ontext(data) {
        if (link) link.title += data;
        else if (folderTitle) folderTitle.text += data;
        else if (note) note.note += data;
      },
      onclosetag(name) {
        if (name === 'a' && link) {
          bookmarks.push(link);
          link = null;
        } else if (name === 'h3' && folderTitle) {
          pendingFolder = folderTitle.root ? null : folderTitle.text.trim();
          folderTitle = null;
        } else if (name === 'dl') {
          folders.pop();
          note = null;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(text);
  parser.end();
  return bookmarks.map((bookmark) => ({ ...bookmark, title: bookmark.title.trim(), note: bookmark.note.trim() }));
}
