import { beforeAll, describe, expect, it } from 'vitest';
import { ErrorReply } from '../../../contract/errors.ts';
import { bookmarkFixture, bookmarksByLink, importBookmarks, uploadBookmarks } from '../test/bookmark-import.ts';
import { registerUser, type TestApp, testAppOn, testDialects } from '../test/test-app.ts';
import { bookmarksClient } from '../test/bookmarks-client.ts';

const at = (seconds: number) => new Date(seconds * 1000).toISOString();
const clean = { skipped_links: [], errors: [], shortened: 0, undated: 0, warnings: [], cut_short: false };

/** The files that browsers and bookmark services write, each read by a user of its own. */
describe.each(testDialects)('bookmark files of other programs on %s', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await testAppOn(dialect, { env: { ALLOW_SIGNUP: 'true' } });
    return t.close;
  });

  const newUser = async () => bookmarksClient(t.app, (await registerUser(t.app)).idToken);
  const importAsNewUser = async (file: Buffer | string) => {
    const user = await newUser();
    return { user, reply: await importBookmarks(t.app, user, file), saved: await bookmarksByLink(user) };
  };

  describe('encodings', () => {
    it('reads a Windows-1252 file as its <meta> says (Internet Explorer)', async () => {
      const { reply, saved } = await importAsNewUser(bookmarkFixture('ie-windows-1252-bookmarks.html'));
      expect(reply).toEqual({ imported: 2, skipped: 0, ...clean });
      expect(saved.get('https://www.example.com/prix')).toMatchObject({ title: 'Prix en € – l’offre du café', tags: ['Favorites Bar'] });
      expect(saved.get('https://www.example.com/menu')).toMatchObject({ title: 'Menü für Gäste', tags: ['Liens utiles'] });
    });

    it('reads an ISO-8859-1 file as its <meta> says (Netscape 4)', async () => {
      const { saved } = await importAsNewUser(bookmarkFixture('netscape-4-iso-8859-1-bookmarks.html'));
      expect(saved.get('http://www.example.de/spaetzle')).toMatchObject({ title: 'Spätzle à la française', tags: ['Küche'] });
      expect(saved.get('http://www.example.de/kaese')?.title).toBe('Käse');
    });

    it('reads a UTF-16 file by its byte order mark (a Chrome file saved again by Notepad)', async () => {
      const { reply, saved } = await importAsNewUser(bookmarkFixture('notepad-utf-16le-bookmarks.html'));
      expect(reply).toEqual({ imported: 2, skipped: 0, ...clean });
      expect(saved.get('https://zh.wikipedia.org/wiki/书签')?.title).toBe('书签 – 维基百科');
      expect(saved.get('https://www.example.org/emoji')?.title).toBe('Emoji 🔖 bookmarks');
    });

    it('reads a file that declares nothing as UTF-8 when it is, else as Windows-1252', async () => {
      const undeclared = (encoding: BufferEncoding) =>
        Buffer.from(
          bookmarkFixture('ie-windows-1252-bookmarks.html')
            .toString(encoding === 'utf8' ? 'latin1' : encoding)
            .replace(/<META HTTP-EQUIV[^\n]*\n/, ''),
          encoding,
        );
      expect((await importAsNewUser(undeclared('latin1'))).saved.get('https://www.example.com/menu')?.title).toBe('Menü für Gäste');
      const utf8 = Buffer.from('<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n<DT><A HREF="https://example.org/">Crème brûlée €</A>\n</DL><p>\n');
      expect((await importAsNewUser(utf8)).saved.get('https://example.org/')?.title).toBe('Crème brûlée €');
    });
  });

  describe('tags and notes', () => {
    it('keeps a TAGS value with a space as one tag (Delicious)', async () => {
      const { reply, saved } = await importAsNewUser(bookmarkFixture('delicious-bookmarks.html'));
      expect(reply).toEqual({ imported: 3, skipped: 0, ...clean });
      expect(saved.get('https://www.gutenberg.org/')).toMatchObject({ tags: ['public domain'], note: 'Free ebooks' });
      expect(saved.get('https://archive.org/details/texts')?.tags).toEqual(['public domain', 'archives', 'books']);
      expect(saved.get('https://publicdomainreview.org/')?.tags).toEqual([]);
    });

    it('makes each folder one tag, drops folder descriptions, and keeps a note’s line breaks (Firefox 3)', async () => {
      const { saved } = await importAsNewUser(bookmarkFixture('firefox-3-bookmarks.html'));
      const gettingStarted = saved.get('http://www.mozilla.com/en-US/firefox/central/');
      expect(gettingStarted?.note).toBeUndefined();
      expect(saved.get('http://fxfeeds.mozilla.com/en-US/firefox/headlines.xml')?.tags).toEqual([]);
      expect(saved.get('http://en-us.www.mozilla.com/en-US/firefox/help/')?.tags).toEqual(['Mozilla Firefox']);
      expect(saved.get('http://en-us.www.mozilla.com/en-US/firefox/customize/')).toMatchObject({
        tags: ['Mozilla Firefox', 'add-ons', 'themes'],
        note: 'Add-ons and themes\nfor your browser',
      });
      expect(saved.get('https://www.example.org/long-read')?.tags).toEqual(['Reading, later']);
    });

    it('keeps a description’s markup as text with its line breaks, and drops a folder’s (Netscape 4)', async () => {
      const { saved } = await importAsNewUser(bookmarkFixture('netscape-4-iso-8859-1-bookmarks.html'));
      expect(saved.get('http://www.example.de/spaetzle')?.note).toBe('Line one\nline two bold');
      expect(saved.get('http://home.netscape.com/')?.note).toBeUndefined();
      expect(saved.get('http://www.example.de/kaese')?.note).toBeUndefined();
    });

    it('reads notes and times as linkding writes them', async () => {
      const { saved } = await importAsNewUser(bookmarkFixture('linkding-bookmarks.html'));
      expect(saved.get('https://linkding.link/')).toEqual(
        expect.objectContaining({
          tags: ['self-hosted', 'bookmarks'],
          note: 'Self-hosted bookmark manager[linkding-notes]Try the <b>archive</b> feature\nthen the browser extension[/linkding-notes]',
          create_date: at(1_700_000_000),
          update_date: at(1_700_086_400),
        }),
      );
      expect(saved.get('https://github.com/sissbruecker/linkding')?.tags).toEqual(['self-hosted', 'code', 'linkding:bookmarks.archived']);
    });
  });

  it('shortens a field over its limit, keeps the bookmark, and says so by line', async () => {
    const { reply, saved } = await importAsNewUser(bookmarkFixture('over-limit-bookmarks.html'));
    expect(reply).toMatchObject({ imported: 5, skipped: 0, errors: [], shortened: 5, undated: 0, cut_short: false });
    expect(reply.warnings).toEqual([
      { line: 9, message: 'title: shortened to 500 characters' },
      { line: 10, message: 'note: shortened to 10000 characters' },
      { line: 110, message: 'tags: the first 50 kept' },
      { line: 113, message: 'tags: shortened to 100 characters each' },
      { line: 114, message: 'tags: shortened to 100 characters each' },
    ]);
    expect(saved.get('https://example.org/long-title')?.title).toMatch(/^A title that goes on and on and on .{400,}$/);
    expect(saved.get('https://example.org/long-title')?.title.length).toBeLessThanOrEqual(500);
    expect(saved.get('https://example.org/long-note')?.note?.length).toBeLessThanOrEqual(10_000);
    expect(saved.get('https://example.org/long-note')?.note).toMatch(/^Paragraph 1: lorem ipsum/);
    expect(saved.get('https://example.org/many-tags')?.tags).toEqual(Array.from({ length: 50 }, (_, n) => `tag${String(n + 1).padStart(2, '0')}`));
    const folder = 'Notes from the 2009 conference on the history of the web, with the slides of every talk and the link';
    expect(saved.get('https://example.org/slides')?.tags).toEqual([folder]);
    expect(saved.get('https://example.org/links')?.tags).toEqual([folder]);
  });

  it('reads an unclosed link as a browser does, and every date it can (a file edited by hand)', async () => {
    const { reply, saved } = await importAsNewUser(bookmarkFixture('hand-edited-bookmarks.html'));
    expect(reply).toMatchObject({ imported: 8, skipped: 0, errors: [], shortened: 0, undated: 1, cut_short: false });
    expect(reply.warnings).toEqual([{ line: 13, message: 'ADD_DATE and LAST_MODIFIED: no date could be read, dated at the import' }]);
    const dates = (link: string) => {
      const bookmark = saved.get(`https://example.org/${link}`);
      return [bookmark?.create_date, bookmark?.update_date];
    };
    expect(saved.get('https://example.org/unclosed')?.title).toBe('An unclosed link');
    expect(dates('unclosed')).toEqual([at(1_700_000_000), at(1_700_000_000)]);
    expect(saved.get('https://example.org/after-unclosed')?.title).toBe('The link after it');
    expect(dates('1989')).toEqual([at(599_616_000), at(599_616_000)]);
    expect(dates('milliseconds')).toEqual([at(1_700_000_000.123), at(1_700_000_000.456)]);
    expect(dates('microseconds')).toEqual([at(1_700_000_000.123), at(1_700_000_000.654)]);
    expect(dates('fraction')).toEqual([at(1_700_000_000.25), at(1_700_000_001.5)]);
    expect(dates('modified-only')).toEqual([at(1_700_000_200), at(1_700_000_200)]);
    expect(dates('undated')).toEqual([new Date(t.clock.now()).toISOString(), new Date(t.clock.now()).toISOString()]);
  });

  it('imports what a file cut short holds, and says it was cut short', async () => {
    const { reply, saved } = await importAsNewUser(bookmarkFixture('chrome-cut-short-bookmarks.html'));
    expect(reply).toEqual({ imported: 3, skipped: 0, ...clean, cut_short: true });
    expect(saved.get('https://www.example.org/kept')?.title).toBe('Cut in its title');
  });

  it('exports oldest first, whatever order the file came in (Shaarli writes newest first)', async () => {
    const { user, saved } = await importAsNewUser(bookmarkFixture('shaarli-bookmarks.html'));
    expect(saved.get('https://shaarli.readthedocs.io/')?.note).toBe('How to install Shaarli:\n\n1. download the release\n2. point the web server at it');
    const exported = (await user.inject('GET', '/bookmarks/export')).body;
    expect([...exported.matchAll(/HREF="([^"]+)"/g)].map((match) => match[1])).toEqual([
      'https://sebsauvage.net/wiki/doku.php?id=php:shaarli',
      'https://github.com/shaarli/Shaarli',
      'https://shaarli.readthedocs.io/',
    ]);
  });

  it('refuses a file in an encoding it cannot read, and changes nothing', async () => {
    const user = await newUser();
    const file = bookmarkFixture('delicious-bookmarks.html').toString().replace('charset=UTF-8', 'charset=ISO-2022-KR');
    const response = await uploadBookmarks(t.app, user, file);
    expect(response.statusCode).toBe(400);
    expect(ErrorReply.parse(response.json()).message).toMatch(/encoding/);
    expect((await user.list()).items).toEqual([]);
  });
});
