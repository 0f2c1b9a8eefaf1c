import { describe, expect, it } from 'vitest';
import { bookmarkFixture } from '../test/bookmark-import.ts';
import { bookmarkFileText } from './bookmark-file-text.ts';
import { type FileBookmark, MAX_OPEN_ELEMENTS, readNetscapeFile } from './netscape-file-reader.ts';

/** Every link of a file whose bytes arrive in the chunks given, and how the file ended. */
async function read(chunks: Uint8Array[]) {
  const links: FileBookmark[] = [];
  const reading = readNetscapeFile(bookmarkFileText(chunks));
  for (let step = await reading.next(); ; step = await reading.next()) {
    if (step.done) return { links, end: step.value };
    links.push(...step.value);
  }
}

function cut(bytes: Uint8Array, size: number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let start = 0; start < bytes.length; start += size) chunks.push(bytes.subarray(start, start + size));
  return chunks;
}

const FIXTURES = [
  'firefox-bookmarks.html',
  'ie-windows-1252-bookmarks.html',
  'notepad-utf-16le-bookmarks.html',
  'netscape-4-iso-8859-1-bookmarks.html',
  'hand-edited-bookmarks.html',
  'chrome-cut-short-bookmarks.html',
];

/** An upload arrives in chunks of any size: a character, a tag or a line may be cut anywhere. */
describe('reading a bookmarks file chunk by chunk', () => {
  it.each(FIXTURES)('reads %s in chunks of 1, 3 and 7 bytes as it reads it whole', async (name) => {
    const file = bookmarkFixture(name);
    const whole = await read([file]);
    expect(whole.links.length).toBeGreaterThan(0);
    for (const size of [1, 3, 7]) expect(await read(cut(file, size))).toEqual(whole);
  });

  it('counts lines across chunks', async () => {
    const file = Buffer.from('<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n<DT><A HREF="https://a.example/">Ä</A>\n\n<DT><A\nHREF="https://b.example/">B</A>\n</DL>\n');
    const { links } = await read(cut(file, 5));
    expect(links.map((link) => [link.link, link.line])).toEqual([
      ['https://a.example/', 3],
      ['https://b.example/', 5],
    ]);
  });

  it('decides that an undeclared file is Windows-1252 by a byte far after its start', async () => {
    const links = Array.from({ length: 2000 }, (_, i) => `<DT><A HREF="https://example.org/${i}">Link ${i}</A>\n`).join('');
    const file = Buffer.concat([
      Buffer.from(`<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n${links}`),
      Buffer.from('<DT><A HREF="https://example.org/menu">Men\u00fc</A>\n</DL>\n', 'latin1'),
    ]);
    const { links: read1252 } = await read(cut(file, 16 * 1024));
    expect(read1252.at(-1)?.title).toBe('Menü');
    expect(read1252).toHaveLength(2001);
  });

  it('refuses a file without the doctype at its start, however it is cut', async () => {
    await expect(read(cut(Buffer.from('<html><DL><DT><A HREF="https://a.example/">A</A></DL>'), 2))).rejects.toThrow(/not a browser bookmarks file/);
  });
});

/** A file of `depth` folders, each inside the one before, as a browser writes one, with a link in the deepest. */
function nestedFolders(depth: number): Buffer {
  const open = '<DT><H3>folder</H3>\n<DL><p>\n'.repeat(depth);
  const close = '</DL><p>\n'.repeat(depth);
  return Buffer.from(`<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n${open}<DT><A HREF="https://deep.example/">Deep</A>\n${close}</DL><p>\n`);
}

describe('how deep a file may nest', () => {
  it('reads folders nested 300 deep, their first 300 as the link’s folders', async () => {
    const { links } = await read(cut(nestedFolders(300), 64 * 1024));
    expect(links).toHaveLength(1);
    expect(links[0]?.folders).toHaveLength(300);
  });

  it('refuses a file of 100,000 nested folders at the bound, naming its line', async () => {
    await expect(read(cut(nestedFolders(100_000), 64 * 1024))).rejects.toThrow(
      new RegExp(`nests more than ${MAX_OPEN_ELEMENTS} elements inside one another \\(line \\d`),
    );
  });

  it('counts elements that are not lists, such as a description’s unclosed bold', async () => {
    const links = Array.from({ length: MAX_OPEN_ELEMENTS }, (_, i) => `<DT><A HREF="https://example.org/${i}">${i}</A>\n<DD><b>note\n`).join('');
    await expect(read([Buffer.from(`<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n${links}</DL>\n`)])).rejects.toThrow(/nests more than/);
  });
});
