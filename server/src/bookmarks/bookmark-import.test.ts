import { beforeAll, describe, expect, it } from 'vitest';
import { CurrentBookmarkImport } from '../../../contract/bookmarks.ts';
import { ErrorReply } from '../../../contract/errors.ts';
import { heldUpload } from '../test/held-upload.ts';
import { bookmarkFixture, bookmarksByLink as byLink, importBookmarks, readFileLinks, uploadBookmarks } from '../test/bookmark-import.ts';
import { registerUser, type TestApp, testAppOn, testDialects } from '../test/test-app.ts';
import { type BookmarksClient, bookmarksClient } from '../test/bookmarks-client.ts';

const FIREFOX_FILE = bookmarkFixture('firefox-bookmarks.html');
const clean = { skipped_links: [], errors: [], shortened: 0, undated: 0, warnings: [], cut_short: false };
/** The links of the Firefox file that are not imported, and why. */
const FIREFOX_SKIPPED = [
  { line: 21, link: 'javascript:alert(document.title)', reason: 'not a web link (javascript:)' },
  { line: 24, link: 'https://sqlite.org/fts5.html', reason: 'repeats line 19' },
  { line: 25, link: 'file:///home/user/notes.txt', reason: 'not a web link (file:)' },
];

/** What Chrome writes, with a `<DD>` note that Firefox no longer exports. */
const CHROME_STYLE_FILE = `<!DOCTYPE NETSCAPE-Bookmark-file-1>
<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">
<TITLE>Bookmarks</TITLE>
<H1>Bookmarks</H1>
<DL><p>
    <DT><H3 ADD_DATE="1700000000" LAST_MODIFIED="0" PERSONAL_TOOLBAR_FOLDER="true">Bookmarks bar</H3>
    <DL><p>
        <DT><A HREF="https://example.org/with-note" ADD_DATE="1700000100">With a note</A>
        <DD>First line &amp; more
second line
        <DT><A HREF="https://example.org/untitled" ADD_DATE="1700000200"></A>
        <DT><A HREF="https://example.org/${'x'.repeat(2100)}" ADD_DATE="1700000300">Too long a link</A>
    </DL><p>
</DL><p>
`;

describe.each(testDialects)('bookmark import and export on %s', (dialect) => {
  let t: TestApp;
  let alice: BookmarksClient;

  beforeAll(async () => {
    t = await testAppOn(dialect, { env: { ALLOW_SIGNUP: 'true' } });
    alice = bookmarksClient(t.app, (await registerUser(t.app)).idToken);
    return t.close;
  });

  const upload = (client: BookmarksClient, file: Buffer | string) => uploadBookmarks(t.app, client, file);
  const imported = (client: BookmarksClient, file: Buffer | string) => importBookmarks(t.app, client, file);

  it('imports a file Firefox wrote: http(s) links once each, folders and TAGS as tags, its dates', async () => {
    expect(await imported(alice, FIREFOX_FILE)).toEqual({ imported: 8, skipped: 3, ...clean, skipped_links: FIREFOX_SKIPPED });
    const saved = await byLink(alice);
    expect(saved.get('https://developer.mozilla.org/en-US/docs/Web/HTML')).toMatchObject({
      title: 'HTML: HyperText Markup Language | MDN',
      tags: ['html', 'reference'],
      create_date: new Date(1_700_000_000_000).toISOString(),
      update_date: new Date(1_700_000_500_000).toISOString(),
    });
    expect(saved.get('https://sqlite.org/fts5.html')).toMatchObject({ title: 'SQLite FTS5 Extension', tags: ['Development', 'Databases', 'search', 'sqlite'] });
    expect(saved.get('https://nodejs.org/docs/latest/api/')?.tags).toEqual(['Development', 'node']);
    // The browser's own root folders are not topics.
    expect(saved.get('https://news.ycombinator.com/')?.tags).toEqual(['news']);
    expect(saved.get('http://example.com/plain-http')?.tags).toEqual([]);
    expect(saved.get('https://example.org/search?q=a&b=%3Cc%3E')?.title).toBe('Quotes "&" <angle>');
    expect(saved.get('https://fr.wikipedia.org/wiki/Les_Mis%C3%A9rables')?.title).toBe('Les Misérables — Wikipédia');
    expect([...saved.keys()].some((link) => !link.startsWith('http'))).toBe(false);
    expect(saved.size).toBe(8);
  });

  it('exports the folder tree the file came from: nested folders, the toolbar, keywords, tags and dates', async () => {
    const exported = await alice.inject('GET', '/bookmarks/export');
    const places = async (file: Buffer | string) => {
      const links = await readFileLinks(Buffer.from(file));
      return new Map(links.map(({ link, root, folders, keyword, tags, added, modified }) => [link, { root, folders, keyword, tags, added, modified }]));
    };
    const fromFirefox = await places(FIREFOX_FILE);
    const fromExport = await places(exported.body);
    expect(fromExport.get('https://sqlite.org/fts5.html')).toEqual({
      root: '',
      folders: ['Development', 'Databases'],
      keyword: '',
      tags: ['search', 'sqlite'],
      added: '1700004000',
      modified: '1700004000',
    });
    expect(fromExport.get('https://nodejs.org/docs/latest/api/')).toMatchObject({ folders: ['Development'], keyword: 'nodedocs' });
    expect(fromExport.get('https://news.ycombinator.com/')).toMatchObject({ root: 'toolbar', folders: [] });
    expect(fromExport.get('http://example.com/plain-http')).toMatchObject({ root: 'unfiled', folders: [] });
    // The file repeats fts5.html in the menu; the first is the one kept.
    fromFirefox.delete('javascript:alert(document.title)');
    fromFirefox.delete('file:///home/user/notes.txt');
    fromFirefox.set('https://sqlite.org/fts5.html', fromExport.get('https://sqlite.org/fts5.html')!);
    expect(fromExport).toEqual(fromFirefox);
    expect(exported.body).toMatch(/<DT><H3>Development<\/H3>\n {4}<DL><p>\n(?:.*\n)*? {8}<DT><H3>Databases<\/H3>\n {8}<DL><p>\n/);
  });

  it('indexes what it imports', async () => {
    const result = await alice.search({ key_words: ['wikipedia'] });
    expect(result.bookmarks.map((bookmark) => [bookmark.title, bookmark.indexed])).toEqual([['Les Misérables — Wikipédia', true]]);
    expect((await alice.search({ key_words: ['databases'], fields: ['tags'] })).total_count).toBe(2);
  });

  it('skips the links the user already has', async () => {
    const reply = await imported(alice, FIREFOX_FILE);
    expect(reply).toMatchObject({ imported: 0, skipped: 11 });
    const alreadySaved = reply.skipped_links.filter((skipped) => skipped.reason === 'already saved');
    expect(alreadySaved.map((skipped) => skipped.link).sort()).toEqual([...(await byLink(alice)).keys()].sort());
    expect(reply.skipped_links.filter((skipped) => skipped.reason !== 'already saved')).toEqual(FIREFOX_SKIPPED);
    expect((await byLink(alice)).size).toBe(8);
  });

  it('takes a <DD> as the note, the link as a missing title, and reports bad links by line', async () => {
    const bob = bookmarksClient(t.app, (await registerUser(t.app)).idToken);
    const reply = await imported(bob, CHROME_STYLE_FILE);
    expect(reply.imported).toBe(2);
    expect(reply.errors).toEqual([{ line: 12, message: 'link: must be at most 2048 characters' }]);
    const saved = await byLink(bob);
    expect(saved.get('https://example.org/with-note')).toMatchObject({ note: 'First line & more\nsecond line', tags: [] });
    expect(saved.get('https://example.org/untitled')?.title).toBe('https://example.org/untitled');
  });

  it('exports a file that imports back to the same bookmarks: tags with spaces and commas, line breaks, milliseconds', async () => {
    const note = await alice.create({ title: 'Noted <b>bold</b>', link: 'https://example.org/noted?a=1&b=2', tags: 'x y', note: 'a "quoted" & <tagged>\nnote' });
    t.clock.advance(1234);
    const folders = await alice.create({
      title: 'In folders',
      link: 'https://example.org/folders',
      tags: ['public domain', 'Reading, later', 'x', 'a,b', 'last one'],
      note: 'first line\n\n  indented line',
    });
    expect(folders.tags).toEqual(['public domain', 'Reading, later', 'x', 'a,b', 'last one']);
    const response = await alice.inject('GET', '/bookmarks/export');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="bookmarks.html"');
    expect(response.body).toMatch(/^<!DOCTYPE NETSCAPE-Bookmark-file-1>/);
    expect(response.body).toContain('TAGS="x,y"');

    const carol = bookmarksClient(t.app, (await registerUser(t.app)).idToken);
    expect(await imported(carol, response.body)).toEqual({ imported: 10, skipped: 0, ...clean });
    const strip = (items: Map<string, { id: number }>) => [...items.values()].map(({ id: _id, ...rest }) => rest);
    const original = await byLink(alice);
    expect(original.get(note.link)).toEqual(note);
    expect(original.get(folders.link)).toEqual(folders);
    expect(strip(await byLink(carol))).toEqual(strip(original));
  });

  it('names the scheme of each link that is not a web link, and counts every skip past the hundred listed', async () => {
    const bob = bookmarksClient(t.app, (await registerUser(t.app)).idToken);
    const repeats = Array.from({ length: 105 }, () => '<DT><A HREF="https://example.org/same">Same</A>').join('\n');
    const file = `<!DOCTYPE NETSCAPE-Bookmark-file-1>
<DL><p>
<DT><A HREF="place:sort=8&maxResults=10">Most Visited</A>
<DT><A HREF="about:config">Settings</A>
<DT><A>No link</A>
${repeats}
</DL><p>
`;
    const reply = await imported(bob, file);
    expect(reply).toMatchObject({ imported: 1, skipped: 107 });
    expect(reply.skipped_links.slice(0, 4)).toEqual([
      { line: 3, link: 'place:sort=8&maxResults=10', reason: 'not a web link (place:)' },
      { line: 4, link: 'about:config', reason: 'not a web link (about:)' },
      { line: 5, link: '', reason: 'no link' },
      { line: 7, link: 'https://example.org/same', reason: 'repeats line 6' },
    ]);
    expect(reply.skipped_links).toHaveLength(100);
  });

  it('refuses a file that is not a bookmarks file, and changes nothing', async () => {
    const bob = bookmarksClient(t.app, (await registerUser(t.app)).idToken);
    for (const file of ['<html><body><a href="https://example.org">x</a></body></html>', '{"roots": {}}', Buffer.from([0, 1, 2])]) {
      const response = await upload(bob, file);
      expect(response.statusCode).toBe(400);
      expect(ErrorReply.parse(response.json()).message).toMatch(/^This is not a browser bookmarks file/);
    }
    const noFile = await t.app.inject({ method: 'POST', url: '/bookmarks/import', payload: { file: 'x' }, headers: bob.headers });
    expect(noFile.statusCode).toBe(400);
    expect((await bob.list()).items).toEqual([]);
  });
});

describe.each(testDialects)('bookmark import progress on %s', (dialect) => {
  it('tells the user’s import as it goes: bytes while the file arrives, then the importer’s counts', async () => {
    const t = await testAppOn(dialect, { env: { ALLOW_SIGNUP: 'true' } });
    try {
      const { idToken } = await registerUser(t.app);
      const progress = async () =>
        CurrentBookmarkImport.parse((await t.app.inject({ url: '/bookmarks/import/progress', headers: { authorization: `Bearer ${idToken}` } })).json())
          .import;
      expect(await progress()).toBeNull();
      const port = Number(new URL(await t.app.listen({ port: 0, host: '127.0.0.1' })).port);
      const sending = heldUpload(port, idToken, Buffer.from(FIREFOX_FILE), null, '/bookmarks/import');
      let receiving = await progress();
      for (const until = Date.now() + 20_000; !(receiving?.phase === 'receiving' && receiving.bytes > 0) && Date.now() < until; receiving = await progress()) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(receiving).toMatchObject({ phase: 'receiving', read: 0, imported: 0 });
      sending.finish();
      const reply = await sending.reply;
      expect(reply.status, reply.body).toBe(200);
      const done = await progress();
      expect(done).toMatchObject({ phase: 'done', imported: 8, skipped: 3, errors: 0, read: 11, bytes: Buffer.from(FIREFOX_FILE).length });
    } finally {
      await t.close();
    }
  });
});
