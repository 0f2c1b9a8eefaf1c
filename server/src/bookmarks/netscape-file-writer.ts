import { type Bookmark, foldTag } from '../../../contract/bookmarks.ts';
import type { FolderRoot } from './netscape-file-reader.ts';

/** A bookmark as the export writes it: with the keyword its browser gave it. */
export type ExportedBookmark = Bookmark & { keyword?: string | undefined };

/** A folder that holds bookmarks, and when its oldest was made (epoch ms), which places it among its neighbours. */
export type ExportedFolder = { root: FolderRoot; folder: string[]; first: number };

/** What the export reads: the folders that hold bookmarks, and each one's bookmarks, oldest first. */
export type ExportSource = {
  folders: ExportedFolder[];
  bookmarksIn(root: FolderRoot, folder: string[]): AsyncIterable<ExportedBookmark>;
};

type FolderNode = { name: string; path: string[]; first: number; holds: boolean; children: FolderNode[] };

/** The browser roots other than the menu, as Firefox writes them: a browser puts their contents back in its own toolbar and "other bookmarks". */
const ROOT_HEADINGS: Array<[Exclude<FolderRoot, ''>, string]> = [
  ['toolbar', '<H3 PERSONAL_TOOLBAR_FOLDER="true">Bookmarks Toolbar</H3>'],
  ['unfiled', '<H3 UNFILED_BOOKMARKS_FOLDER="true">Other Bookmarks</H3>'],
];

const escape = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

const indent = (depth: number) => '    '.repeat(depth + 1);

/** The format's seconds; a fraction only when the time has milliseconds, which browsers drop. */
function seconds(iso: string): string {
  const ms = Date.parse(iso);
  return ms % 1000 === 0 ? String(ms / 1000) : (ms / 1000).toFixed(3);
}

/** Each root's tree of folders, every folder placed by its oldest bookmark, as the browser it came from had them in order. */
function folderTrees(folders: ExportedFolder[]): Map<FolderRoot, FolderNode> {
  const roots = new Map<FolderRoot, FolderNode>();
  for (const { root, folder, first } of folders) {
    let node: FolderNode = roots.get(root) ?? { name: '', path: [], first, holds: false, children: [] };
    roots.set(root, node);
    node.first = Math.min(node.first, first);
    for (const [depth, name] of folder.entries()) {
      let child: FolderNode | undefined = node.children.find((one) => one.name === name);
      if (!child) node.children.push((child = { name, path: folder.slice(0, depth + 1), first, holds: false, children: [] }));
      child.first = Math.min(child.first, first);
      node = child;
    }
    node.holds = true;
  }
  const order = (node: FolderNode) => {
    node.children.sort((a, b) => a.first - b.first || a.name.localeCompare(b.name));
    node.children.forEach(order);
  };
  roots.forEach(order);
  return roots;
}

/**
 * One bookmark's entry in its folder. Its tags go in TAGS, so that a browser keeps them as tags,
 * but for those its folders give it back (each folder is a tag on import). TAGS is
 * comma-separated with no escape, so a tag holding a comma is written as a folder around the entry
 * instead, with the tags before it, which the reader gives back in order.
 */
function entry(bookmark: ExportedBookmark, folder: string[], depth: number): string {
  const inFolders = new Set(folder.map(foldTag));
  const own = bookmark.tags.filter((tag) => !inFolders.has(foldTag(tag)));
  const lastWithComma = own.findLastIndex((tag) => tag.includes(','));
  const around = own.slice(0, lastWithComma + 1);
  const tags = own.slice(lastWithComma + 1);
  let text = around.map((name, n) => `${indent(depth + n)}<DT><H3>${escape(name)}</H3>\n${indent(depth + n)}<DL><p>\n`).join('');
  const inner = indent(depth + around.length);
  const tagsAttribute = tags.length > 0 ? ` TAGS="${escape(tags.join(','))}"` : '';
  const keywordAttribute = bookmark.keyword ? ` SHORTCUTURL="${escape(bookmark.keyword)}"` : '';
  // linkding's mark of a link to read later, which the import reads back (decision 0042).
  const toReadAttribute = bookmark.state === 'unread' ? ' TOREAD="1"' : '';
  text +=
    `${inner}<DT><A HREF="${escape(bookmark.link)}" ADD_DATE="${seconds(bookmark.create_date)}"` +
    ` LAST_MODIFIED="${seconds(bookmark.update_date)}"${keywordAttribute}${toReadAttribute}${tagsAttribute}>${escape(bookmark.title)}</A>\n`;
  if (bookmark.note !== undefined) text += `${inner}<DD>${escape(bookmark.note)}\n`;
  for (let n = around.length - 1; n >= 0; n--) text += `${indent(depth + n)}</DL><p>\n`;
  return text;
}

/**
 * The Netscape bookmark file, as Firefox writes it: the menu's folders and bookmarks in the top
 * list, then the toolbar and "other bookmarks", each folder a `<DL>` inside its parent's, so that
 * a browser importing it gets back the tree the bookmarks were imported from. Within a folder,
 * bookmarks go oldest first, each subfolder where its oldest bookmark falls; the note is a `<DD>`.
 */
export async function* writeNetscapeFile(source: ExportSource): AsyncIterable<string> {
  const trees = folderTrees(source.folders);

  async function* contents(root: FolderRoot, node: FolderNode, depth: number): AsyncGenerator<string> {
    let next = 0;
    if (node.holds) {
      for await (const bookmark of source.bookmarksIn(root, node.path)) {
        const made = Date.parse(bookmark.create_date);
        for (; next < node.children.length && node.children[next]!.first <= made; next++) yield* folder(root, node.children[next]!, depth);
        yield entry(bookmark, node.path, depth);
      }
    }
    for (; next < node.children.length; next++) yield* folder(root, node.children[next]!, depth);
  }
  async function* folder(root: FolderRoot, node: FolderNode, depth: number, heading = `<H3>${escape(node.name)}</H3>`): AsyncGenerator<string> {
    yield `${indent(depth)}<DT>${heading}\n${indent(depth)}<DL><p>\n`;
    yield* contents(root, node, depth + 1);
    yield `${indent(depth)}</DL><p>\n`;
  }

  yield `<!DOCTYPE NETSCAPE-Bookmark-file-1>
<!-- This is an automatically generated file.
     It will be read and overwritten.
     DO NOT EDIT! -->
<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">
<TITLE>Bookmarks</TITLE>
<H1>Bookmarks</H1>
<DL><p>
`;
  const menu = trees.get('');
  if (menu) yield* contents('', menu, 0);
  for (const [root, heading] of ROOT_HEADINGS) {
    const tree = trees.get(root);
    if (tree) yield* folder(root, tree, 0, heading);
  }
  yield '</DL><p>\n';
}
