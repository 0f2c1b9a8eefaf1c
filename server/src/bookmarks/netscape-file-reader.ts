import { Parser } from 'htmlparser2';
import { AppError } from '../errors.ts';

/** A link as a browser's bookmarks file holds it, before any validation. */
export type FileBookmark = {
  line: number;
  title: string;
  link: string;
  /** The browser's root folder it sits in: the menu (the file's top list), the toolbar, or "other bookmarks". */
  root: FolderRoot;
  /** Its folders below that root, outermost first, each one tag whatever it holds. */
  folders: string[];
  /** Its `SHORTCUTURL`, the keyword a browser opens it by. */
  keyword: string;
  /** Its TAGS, split on commas (the format's separator; a tag may hold spaces). */
  tags: string[];
  note: string;
  /** `TOREAD="1"`: linkding's (and Pinboard's) mark of a link saved to read later. */
  toRead: boolean;
  /** `ADD_DATE` and `LAST_MODIFIED` as written. */
  added: string | undefined;
  modified: string | undefined;
};

/** The browsers' root folders: '' stands for the menu, which is the file's own top list. */
export type FolderRoot = '' | 'toolbar' | 'unfiled';

/** How the file ended: `cutShort` when it stopped inside its list, before the list was closed. */
export type FileEnd = { cutShort: boolean };

/** The characters the doctype must lie within: the file's very start, leading blanks allowed. */
const HEAD_LENGTH = 1024;
const DOCTYPE = /^\s*(?:\uFEFF)?<!DOCTYPE\s+NETSCAPE-Bookmark-file-1>/i;

/** The browsers' root folders hold everything; they are not topics, so they give no tag, but they are kept as the link's root. */
const ROOT_FOLDER_MARKS = { personal_toolbar_folder: 'toolbar', unfiled_bookmarks_folder: 'unfiled' } as const;

/** A folder open around the entries being read: a named one, a browser root, or the file's own top list. */
type OpenFolder = { name: string } | { root: FolderRoot } | null;
const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
/** Elements that start another entry of the list, and so end a link, heading or note left open. */
const ENTRY_STARTS = new Set(['a', 'dt', 'dd', 'dl', 'hr', ...HEADINGS]);

/**
 * Elements a file may hold open at once. The parser keeps its open elements in a list that it
 * grows and shrinks at the front, so that opening one costs as much as the depth and a file of
 * nested lists took time as the square of its depth: refused past the bound, a file is read in
 * time linear in its length. A browser's file opens three elements per folder (`<DL><p><DT>`), so this is over
 * 300 folders inside one another, past the 50 tags a bookmark keeps.
 */
export const MAX_OPEN_ELEMENTS = 1000;

const splitTagsAttribute = (value: string | undefined) => (value ?? '').split(',').flatMap((tag) => tag.trim() || []);

/**
 * Line numbers of positions in a text that arrives a slice at a time. Positions are asked in
 * order, so only the text after the last one asked is kept.
 */
function lineCounter() {
  let kept = '';
  /** The position of `kept`'s first character in the whole text. */
  let keptFrom = 0;
  /** How far into `kept` the lines are counted. */
  let counted = 0;
  let line = 1;
  return {
    append(text: string) {
      kept = kept.slice(counted) + text;
      keptFrom += counted;
      counted = 0;
    },
    lineAt(position: number): number {
      const end = Math.min(position - keptFrom, kept.length);
      for (; counted < end; counted++) if (kept.charCodeAt(counted) === 10) line++;
      return line;
    },
  };
}

/** The start of the text, long enough to hold the doctype, and the slices after it. */
async function* withHead(texts: AsyncIterable<string>): AsyncGenerator<string, void, void> {
  let head = '';
  for await (const text of texts) {
    if (head.length >= HEAD_LENGTH) {
      yield text;
      continue;
    }
    head += text;
    if (head.length >= HEAD_LENGTH) yield head;
  }
  if (head.length < HEAD_LENGTH) yield head;
}

/**
 * Reads the Netscape bookmark file that browsers and bookmark services export: `<DT><H3>` names
 * a folder whose `<DL>` holds its entries, `<DT><A HREF ADD_DATE LAST_MODIFIED TAGS>` is a link
 * and a `<DD>` after it its description. Files never close their `<DT>`s and `<DD>`s, and hand-made
 * ones leave an `<A>` open, so the forgiving parser's events are read as a browser builds its
 * tree: the next entry ends whatever is left open. Yields the links of each slice of text as it is
 * read, so that the caller may give other work a turn between two.
 */
export async function* readNetscapeFile(texts: AsyncIterable<string>): AsyncGenerator<FileBookmark[], FileEnd, void> {
  let read: FileBookmark[] = [];
  const folders: OpenFolder[] = [];
  let pendingFolder: OpenFolder = null;
  let heading: { text: string; root: FolderRoot | null } | null = null;
  let link: FileBookmark | null = null;
  /** The last link read, kept back until the next entry shows whether a `<DD>` describes it. */
  let described: FileBookmark | null = null;
  let note: string[] | null = null;
  let ending = false;
  let cutShort = false;
  /** Elements the parser holds open: each is opened once and closed once, whether the file closes it or not. */
  let open = 0;
  const lines = lineCounter();

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
    pendingFolder = heading.root === null ? { name: heading.text.trim() } : { root: heading.root };
    heading = null;
  };

  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (++open > MAX_OPEN_ELEMENTS) {
          const line = lines.lineAt(parser.startIndex).toLocaleString('en');
          throw new AppError(
            400,
            `This bookmarks file nests more than ${MAX_OPEN_ELEMENTS} elements inside one another (line ${line}): no browser writes one so deep, and nothing was imported`,
          );
        }
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
          const mark = Object.entries(ROOT_FOLDER_MARKS).find(([attribute]) => attribute in attributes);
          heading = { text: '', root: mark ? mark[1] : name === 'h1' ? '' : null };
        } else if (name === 'dl') {
          folders.push(pendingFolder);
          pendingFolder = null;
        } else if (name === 'a') {
          link = {
            line: lines.lineAt(parser.startIndex),
            title: '',
            link: (attributes.href ?? '').trim(),
            root: folders.flatMap((folder) => (folder !== null && 'root' in folder ? [folder.root] : [])).at(-1) ?? '',
            folders: folders.flatMap((folder) => (folder !== null && 'name' in folder ? [folder.name] : [])),
            keyword: (attributes.shortcuturl ?? '').trim(),
            tags: splitTagsAttribute(attributes.tags),
            note: '',
            toRead: attributes.toread?.trim() === '1',
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
        open--;
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
  let first = true;
  for await (const text of withHead(texts)) {
    if (first && !DOCTYPE.test(text)) {
      throw new AppError(400, 'This is not a browser bookmarks file: it must start with <!DOCTYPE NETSCAPE-Bookmark-file-1>');
    }
    first = false;
    lines.append(text);
    parser.write(text);
    // Whatever the parser reports next starts at or after its startIndex: the lines before are counted and their text let go.
    lines.lineAt(parser.startIndex);
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
