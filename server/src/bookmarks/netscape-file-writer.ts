import type { Bookmark } from '../../../contract/bookmarks.ts';

const escape = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/**
 * The Netscape bookmark file, as Firefox writes it: one flat list, tags in TAGS (so that a
 * browser keeps them as tags rather than as folders), the note as the link's `<DD>`.
 */
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
  for await (const bookmark of bookmarks) {
    const tags = bookmark.tags.length > 0 ? ` TAGS="${escape(bookmark.tags.join(','))}"` : '';
    let entry =
      `    <DT><A HREF="${escape(bookmark.link)}" ADD_DATE="${seconds(bookmark.create_date)}"` +
      ` LAST_MODIFIED="${seconds(bookmark.update_date)}"${tags}>${escape(bookmark.title)}</A>\n`;
    if (bookmark.note !== undefined) entry += `    <DD>${escape(bookmark.note)}\n`;
    yield entry;
  }
  yield '</DL><p>\n';
}
