import type { Bookmark } from '../../../contract/bookmarks.ts';

const escape = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/** The format's seconds; a fraction only when the time has milliseconds, which browsers drop. */
function seconds(iso: string): string {
  const ms = Date.parse(iso);
  return ms % 1000 === 0 ? String(ms / 1000) : (ms / 1000).toFixed(3);
}

/**
 * One bookmark's entry. Its tags go in TAGS, so that a browser keeps them as tags. TAGS is
 * comma-separated with no escape, so a tag holding a comma (a browser folder's name, say) is
 * written as a folder instead, with the tags before it, which the reader gives back in order.
 */
function entry(bookmark: Bookmark): string {
  const lastWithComma = bookmark.tags.findLastIndex((tag) => tag.includes(','));
  const folders = bookmark.tags.slice(0, lastWithComma + 1);
  const tags = bookmark.tags.slice(lastWithComma + 1);
  const indent = (depth: number) => '    '.repeat(depth + 1);
  let text = folders.map((folder, depth) => `${indent(depth)}<DT><H3>${escape(folder)}</H3>\n${indent(depth)}<DL><p>\n`).join('');
  const inner = indent(folders.length);
  const tagsAttribute = tags.length > 0 ? ` TAGS="${escape(tags.join(','))}"` : '';
  text +=
    `${inner}<DT><A HREF="${escape(bookmark.link)}" ADD_DATE="${seconds(bookmark.create_date)}"` +
    ` LAST_MODIFIED="${seconds(bookmark.update_date)}"${tagsAttribute}>${escape(bookmark.title)}</A>\n`;
  if (bookmark.note !== undefined) text += `${inner}<DD>${escape(bookmark.note)}\n`;
  for (let depth = folders.length - 1; depth >= 0; depth--) text += `${indent(depth)}</DL><p>\n`;
  return text;
}

/** The Netscape bookmark file, as Firefox writes it: one list, oldest first, the note as `<DD>`. */
export async function* writeNetscapeFile(bookmarks: AsyncIterable<Bookmark>): AsyncIterable<string> {
  yield `<!DOCTYPE NETSCAPE-Bookmark-file-1>
<!-- This is an automatically generated file.
     It will be read and overwritten.
     DO NOT EDIT! -->
<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">
<TITLE>Bookmarks</TITLE>
<H1>Bookmarks</H1>
<DL><p>
`;
  for await (const bookmark of bookmarks) yield entry(bookmark);
  yield '</DL><p>\n';
}
