import { Parser } from 'htmlparser2';
import { AppError } from '../errors.ts';

/** A link as a browser's bookmarks file holds it, before any validation. */
export type FileBookmark = {
  line: number;
  title: string;
  link: string;
  /** Its folders, outermost first, each one tag whatever it holds. */
  folders: string[];
  /** Its TAGS, split on commas (the format's separator; a tag may hold spaces). */
  tags: string[];
  note: string;
  /** `ADD_DATE` and `LAST_MODIFIED` as written. */
  added: string | undefined;
  modified: string | undefined;
};

/** How the file ended: `cutShort` when it stopped inside its list, before the list was closed. */
export type FileEnd = { cutShort: boolean };

/** Text handed to the parser at a time; the caller may yield to other work between two. */
const SLICE_LENGTH = 64 * 1024;

/** The browsers' root folders hold everything; they are not topics, so they give no tag. */
const ROOT_FOLDER_MARKS = ['personal_toolbar_folder', 'unfiled_bookmarks_folder'];
const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
/** Elements that start another entry of the list, and so end a link, heading or note left open. */
const ENTRY_STARTS = new Set(['a', 'dt', 'dd', 'dl', 'hr', ...HEADINGS]);

const splitTagsAttribute = (value: string | undefined) => (value ?? '').split(',').flatMap((tag) => tag.trim() || []);

/**
 * Reads the Netscape bookmark file that browsers and bookmark services export: `<DT><H3>` names
 * a folder whose `<DL>` holds its entries, `<DT><A HREF ADD_DATE LAST_MODIFIED TAGS>` is a link
 * and a `<DD>` after it its description. Files never close their `<DT>`s and `<DD>`s, and hand-made
 * ones leave an `<A>` open, so the forgiving parser's events are read as a browser builds its
 * tree: the next entry ends whatever is left open. Yields the links as each slice of text is read.
 */
export function* readNetscapeFile(text: string): Generator<FileBookmark[], FileEnd, void> {
  if (!/^\s*(?:\uFEFF)?<!DOCTYPE\s+NETSCAPE-Bookmark-file-1>/i.test(text)) {
    throw new AppError(400, 'This is not a browser bookmarks file: it must start with <!DOCTYPE NETSCAPE-Bookmark-file-1>');
  }
  let read: FileBookmark[] = [];
  const folders: Array<string | null> = [];
  let pendingFolder: string | null = null;
  let heading: { text: string; root: boolean } | null = null;
  let link: FileBookmark | null = null;
  /** The last link read, kept back until the next entry shows whether a `<DD>` describes it. */
  let described: FileBookmark | null = null;
  let note: string[] | null = null;
  let ending = false;
  let cutShort = false;
  let line = 1;
  let counted = 0;
  const lineAt = (index: number) => {
    for (; counted < index; counted++) if (text.charCodeAt(counted) === 10) line++;
    return line;
  };

  const endLink = () => {
    if (!link) return;
    link.title = link.title.trim();
    described = link;
    link = null;
  };
  const endNote = () => {
    if (note && described) described.note = [described.note, note.join('').trim()].filter(Boolean).join('\n');
    note = null;
  };
  const release = () => {
    endNote();
    if (described) read.push(described);
    described = null;
  };
  const endHeading = () => {
    if (!heading) return;
    pendingFolder = heading.root ? null : heading.text.trim();
    heading = null;
  };

  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === 'br' || name === 'p') {
          note?.push('\n');
          return;
        }
        if (!ENTRY_STARTS.has(name)) return;
        endLink();
        endHeading();
        endNote();
        if (name === 'dd') {
          // A folder's description (after its heading) has no link to describe.
          note = described ? [] : null;
          return;
        }
        if (name !== 'dt') release();
        if (HEADINGS.has(name)) {
          heading = { text: '', root: name === 'h1' || ROOT_FOLDER_MARKS.some((mark) => mark in attributes) };
        } else if (name === 'dl') {
          folders.push(pendingFolder);
          pendingFolder = null;
        } else if (name === 'a') {
          link = {
            line: lineAt(parser.startIndex),
            title: '',
            link: (attributes.href ?? '').trim(),
            folders: folders.filter((folder) => folder !== null),
            tags: splitTagsAttribute(attributes.tags),
            note: '',
            added: attributes.add_date,
            modified: attributes.last_modified,
          };
        }
      },
      ontext(data) {
        if (link) link.title += data;
        else if (heading) heading.text += data;
        else note?.push(data);
      },
      onclosetag(name, isImplied) {
        if (name === 'a') endLink();
        else if (HEADINGS.has(name)) endHeading();
        else if (name === 'dd') endNote();
        else if (name === 'dl') {
          endLink();
          endHeading();
          release();
          folders.pop();
          pendingFolder = null;
          if (ending && isImplied) cutShort = true;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  for (let start = 0; start < text.length; start += SLICE_LENGTH) {
    parser.write(text.slice(start, start + SLICE_LENGTH));
    yield read;
    read = [];
  }
  ending = true;
  parser.end();
  endLink();
  release();
  yield read;
  return { cutShort };
}
