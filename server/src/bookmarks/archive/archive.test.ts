import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ArchiveSummaries, ArchiveUsage, BookmarkArchive } from '../../../../contract/bookmark-archives.ts';
import { ErrorReply } from '../../../../contract/errors.ts';
import { bookmarksClient } from '../../test/bookmarks-client.ts';
import { multipart } from '../../test/multipart.ts';
import { html, type PageHandler, type PageServer, startPageServer } from '../../test/page-server.ts';
import { bearer, buildTestApp, createTestDatabase, registerUser, type TestApp, testAppOn, testDialects } from '../../test/test-app.ts';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const paragraphs = (words: string, count = 12) => Array.from({ length: count }, (_, i) => `<p>${words} Paragraph ${i + 1} goes on about it at some length, as articles do.</p>`).join('\n');

const article = (title: string, words: string) =>
  `<!doctype html><html><head><title>${title}</title><meta property="og:site_name" content="The Test Times"></head><body>
  <nav><a href="/">Home</a> <a href="/about">About</a></nav>
  <article><h1>${title}</h1><p class="byline">By Ada Writer</p>${paragraphs(words)}<figure><img src="/pic.png" alt="A picture"><figcaption>The picture</figcaption></figure>${paragraphs('And the last word is zebra.', 2)}</article>
  <footer>Copyright</footer></body></html>`;

const HOSTILE = `<!doctype html><html><head><title>Hostile</title>
  <script>fetch('/beacon?head')</script>
  <link rel="stylesheet" href="http://elsewhere.invalid/style.css">
  <style>body { background: url(http://elsewhere.invalid/bg.png) }</style></head>
  <body onload="fetch('/beacon?onload')"><article><h1>Hostile</h1>
  ${paragraphs('This page tries everything it can to run.')}
  <p onclick="fetch('/beacon?click')" style="background:url(http://elsewhere.invalid/p.png)">Click me please, there is more text here.</p>
  <img src="http://elsewhere.invalid/tracker.png" onerror="fetch('/beacon?onerror')" alt="tracker">
  <iframe src="http://elsewhere.invalid/frame"></iframe><object data="http://elsewhere.invalid/x.swf"></object><embed src="http://elsewhere.invalid/y">
  <form action="http://elsewhere.invalid/steal" method="post"><input name="password"><button>Send</button></form>
  <a href="javascript:fetch('/beacon?href')">a script link</a> <a href="https://example.org/fine">a fine link</a>
  <svg><script>fetch('/beacon?svg')</script></svg><math><mi xlink:href="javascript:alert(1)">x</mi></math>
  <script>fetch('/beacon?body')</script></article></body></html>`;

/** A page that answers what the test sets it to, as a page that goes down, comes back or disappears. */
function switchable(initial: PageHandler) {
  let current = initial;
  return { handler: ((request, response) => current(request, response)) as PageHandler, set: (next: PageHandler) => (current = next) };
}
const status =
  (code: number): PageHandler =>
  (_request, response) =>
    response.writeHead(code, { 'content-type': 'text/html' }).end('<title>No</title>');

describe.each(testDialects)('kept copies of pages on %s', (dialect) => {
  let t: TestApp;
  let token: string;
  let otherToken: string;
  let pages: PageServer;
  const flaky = switchable(status(503));
  const vanishing = switchable(html(article('Soon gone', 'This article will disappear.')));
  /** Resolves, once the server asks for the slow page, with the function that answers it. */
  let slowAsked: (answer: () => void) => void;
  const slowRequest = new Promise<() => void>((resolve) => (slowAsked = resolve));

  beforeAll(async () => {
    pages = await startPageServer({
      '/article': html(article('Kept article', 'The article that is kept.')),
      '/pic.png': html(PNG, 'image/png'),
      '/flaky': flaky.handler,
      '/vanishing': vanishing.handler,
      '/hostile': html(HOSTILE),
      '/slow': (_request, response) => {
        slowAsked(() => response.writeHead(200, { 'content-type': 'text/html' }).end(article('Slow one', 'It took its time.')));
      },
    });
    t = await testAppOn(dialect, { env: { ALLOW_SIGNUP: 'true', PREVIEW_ALLOW_PRIVATE: 'true' } });
    token = (await registerUser(t.app)).idToken;
    otherToken = (await registerUser(t.app)).idToken;
    return async () => {
      await t.close();
      await pages.close();
    };
  });

  const save = (link: string, title = link) => bookmarksClient(t.app, token).create({ title, link });
  const archiveOf = async (id: number, as = token) => {
    const response = await t.app.inject({ url: `/bookmarks/${id}/archive`, headers: bearer(as) });
    expect(response.statusCode, response.body).toBe(200);
    return BookmarkArchive.parse(response.json());
  };
  /** The copy once its background fetch has ended. */
  const settled = (id: number) =>
    vi.waitFor(
      async () => {
        const copy = await archiveOf(id);
        if (copy.status === 'pending') throw new Error('still fetching');
        return copy;
      },
      { timeout: 15_000, interval: 20 },
    );
  const reader = (id: number, as = token) => t.app.inject({ url: `/bookmarks/${id}/archive/reader`, headers: bearer(as) });
  const storedHtml = async (id: number) =>
    (await t.storage.db.selectFrom('bookmark_archives').select('html').where('bookmark_id', '=', id).executeTakeFirstOrThrow()).html ?? '';

  it('keeps the article of a saved page with its images, and reads it with the page server gone', async () => {
    const local = await startPageServer({ '/story': html(article('Offline story', 'Read on a train without a network.')), '/pic.png': html(PNG, 'image/png') });
    const bookmark = await save(`${local.origin}/story`);
    const copy = await settled(bookmark.id);
    await local.close();
    expect(copy).toMatchObject({ status: 'kept', source: 'server', failure: null, title: 'Offline story', site_name: 'The Test Times', images: 1 });
    expect(copy.words).toBeGreaterThan(150);
    expect(copy.reading_minutes).toBe(Math.max(1, Math.round(copy.words / 230)));
    expect(copy.length).toBeGreaterThan(copy.words * 3);
    const page = await reader(bookmark.id);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('Read on a train without a network.');
    expect(page.body).toContain('And the last word is zebra.');
    expect(page.body).toMatch(/<img[^>]+src="data:image\/png;base64,/);
    expect(page.body).not.toContain(local.origin.replace('http://', '') + '/pic.png');
  });

  it('answers the save at once, the page fetched after it', async () => {
    const bookmark = await save(`${pages.origin}/slow`);
    expect((await archiveOf(bookmark.id)).status).toBe('pending');
    (await slowRequest)();
    expect(await settled(bookmark.id)).toMatchObject({ status: 'kept', title: 'Slow one' });
  });

  it('still reads a page that disappeared later, after a fetch again failed', async () => {
    const bookmark = await save(`${pages.origin}/vanishing`);
    expect((await settled(bookmark.id)).status).toBe('kept');
    vanishing.set(status(404));
    const retried = await t.app.inject({ method: 'POST', url: `/bookmarks/${bookmark.id}/archive`, headers: bearer(token) });
    expect(retried.statusCode, retried.body).toBe(202);
    expect(await settled(bookmark.id)).toMatchObject({ status: 'failed', failure: 'the page answered 404 Not Found' });
    const page = await reader(bookmark.id);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('This article will disappear.');
  });

  it('shows an unreachable page as failed, with the reason, and keeps it on retry', async () => {
    const bookmark = await save(`${pages.origin}/flaky`);
    expect(await settled(bookmark.id)).toMatchObject({ status: 'failed', failure: 'the page answered 503 Service Unavailable' });
    expect((await reader(bookmark.id)).statusCode).toBe(404);
    // The bookmark itself is there as saved.
    expect((await bookmarksClient(t.app, token).list()).items.some((item) => item.id === bookmark.id)).toBe(true);
    flaky.set(html(article('Back again', 'The page came back.')));
    const retried = await t.app.inject({ method: 'POST', url: `/bookmarks/${bookmark.id}/archive`, headers: bearer(token) });
    expect(retried.statusCode).toBe(202);
    expect(BookmarkArchive.parse(retried.json()).status).toBe('pending');
    expect(await settled(bookmark.id)).toMatchObject({ status: 'kept', failure: null, title: 'Back again' });
    expect((await reader(bookmark.id)).body).toContain('The page came back.');
  });

  it('records a host that cannot be reached at all', async () => {
    const bookmark = await save('http://127.0.0.1:1/closed');
    expect(await settled(bookmark.id)).toMatchObject({ status: 'failed', failure: 'the page could not be reached (ECONNREFUSED)' });
  });

  it('keeps a hostile page inert: nothing that runs, submits, embeds or fetches, and a policy that forbids it', async () => {
    const bookmark = await save(`${pages.origin}/hostile`);
    expect((await settled(bookmark.id)).status).toBe('kept');
    const stored = await storedHtml(bookmark.id);
    expect(stored).toContain('This page tries everything it can to run.');
    expect(stored).toContain('href="https://example.org/fine"');
    for (const inert of ['<script', 'onload', 'onclick', 'onerror', '<form', '<input', '<button', '<iframe', '<object', '<embed', '<link', '<style', 'style=', 'javascript:', 'elsewhere.invalid', '<svg', '<math'])
      expect(stored.toLowerCase()).not.toContain(inert);
    const page = await reader(bookmark.id);
    const policy = String(page.headers['content-security-policy']);
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("img-src data:");
    expect(policy).toMatch(/sandbox(?![^;]*allow-scripts)/);
    expect(policy).not.toMatch(/script-src|unsafe-inline|unsafe-eval/);
    expect(page.body).toContain(`content="default-src 'none'`);
    expect(page.body.toLowerCase()).not.toContain('<script');
  });

  it('keeps a page sent from the browser (a SingleFile capture), images inside it, for a page the server cannot reach', async () => {
    const bookmark = await save('http://127.0.0.1:1/behind-a-sign-in');
    await settled(bookmark.id);
    const capture = `<!doctype html><html><head><meta charset="utf-8"><title>Members only</title><style>p{color:red}</style><script>evil()</script></head><body><article><h1>Members only</h1>${paragraphs('Only a signed-in reader sees this. Grüße.')}<img src="data:image/png;base64,${PNG.toString('base64')}" alt="inline"><img src="data:text/html;base64,PHNjcmlwdD4=" alt="not an image"></article></body></html>`;
    const body = multipart([['file', Buffer.from(capture), 'page.html']]);
    const response = await t.app.inject({ method: 'POST', url: `/bookmarks/${bookmark.id}/archive/upload`, headers: { ...bearer(token), ...body.headers }, payload: body.payload });
    expect(response.statusCode, response.body).toBe(200);
    expect(BookmarkArchive.parse(response.json())).toMatchObject({ status: 'kept', source: 'upload', failure: null, title: 'Members only', images: 1 });
    const page = await reader(bookmark.id);
    expect(page.body).toContain('Only a signed-in reader sees this. Grüße.');
    expect(page.body).toContain('data:image/png;base64,');
    expect(page.body).not.toContain('data:text/html');
    expect(page.body).not.toContain('evil()');
  });

  it('refuses uploads that are not one HTML file, changing nothing', async () => {
    const bookmark = await save(`${pages.origin}/article?refused`);
    const before = await settled(bookmark.id);
    const url = `/bookmarks/${bookmark.id}/archive/upload`;
    const json = await t.app.inject({ method: 'POST', url, headers: bearer(token), payload: { file: 'x' } });
    expect(json.statusCode).toBe(400);
    const wrongField = multipart([['page', Buffer.from('<p>x</p>'), 'page.html']]);
    const wrong = await t.app.inject({ method: 'POST', url, headers: { ...bearer(token), ...wrongField.headers }, payload: wrongField.payload });
    expect(wrong.statusCode).toBe(400);
    const emptyPage = multipart([['file', Buffer.from('<html><body><script>x()</script></body></html>'), 'page.html']]);
    const empty = await t.app.inject({ method: 'POST', url, headers: { ...bearer(token), ...emptyPage.headers }, payload: emptyPage.payload });
    expect(empty.statusCode).toBe(422);
    expect(ErrorReply.parse(empty.json()).message).toBe('file: the page holds no text to keep');
    expect(await archiveOf(bookmark.id)).toEqual(before);
  });

  it('answers 404 for another user’s bookmark on every route, and changes nothing of it', async () => {
    const bookmark = await save(`${pages.origin}/article?mine`);
    const before = await settled(bookmark.id);
    const as = bearer(otherToken);
    expect((await t.app.inject({ url: `/bookmarks/${bookmark.id}/archive`, headers: as })).statusCode).toBe(404);
    expect((await reader(bookmark.id, otherToken)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: `/bookmarks/${bookmark.id}/archive`, headers: as })).statusCode).toBe(404);
    const upload = multipart([['file', Buffer.from(article('Taken over', 'Someone else’s words.')), 'page.html']]);
    const uploaded = await t.app.inject({ method: 'POST', url: `/bookmarks/${bookmark.id}/archive/upload`, headers: { ...as, ...upload.headers }, payload: upload.payload });
    expect(uploaded.statusCode).toBe(404);
    const summaries = await t.app.inject({ url: `/bookmarks/archives?ids=${bookmark.id}`, headers: as });
    expect(ArchiveSummaries.parse(summaries.json()).archives).toEqual([]);
    expect(await archiveOf(bookmark.id)).toEqual(before);
    expect((await reader(bookmark.id)).body).toContain('The article that is kept.');
  });

  it('lists the copies of a page of cards, and the user’s use of their quota', async () => {
    const kept = await save(`${pages.origin}/article?listed`);
    const none = await bookmarksClient(t.app, otherToken).create({ title: 'x', link: 'http://127.0.0.1:1/other' });
    await settled(kept.id);
    const response = await t.app.inject({ url: `/bookmarks/archives?ids=${kept.id},${none.id},999999`, headers: bearer(token) });
    expect(response.statusCode).toBe(200);
    expect(ArchiveSummaries.parse(response.json()).archives.map((copy) => copy.bookmark_id)).toEqual([kept.id]);
    for (const ids of ['', 'a', '1,,2', Array.from({ length: 101 }, (_, i) => i + 1).join(',')]) {
      expect((await t.app.inject({ url: `/bookmarks/archives?ids=${ids}`, headers: bearer(token) })).statusCode).toBe(400);
    }
    const usage = ArchiveUsage.parse((await t.app.inject({ url: '/bookmarks/archives/usage', headers: bearer(token) })).json());
    expect(usage.quota_bytes).toBe(500 * 1024 * 1024);
    expect(usage.copies).toBeGreaterThan(0);
    expect(usage.used_bytes).toBeGreaterThan(0);
    const stored = await t.storage.db.selectFrom('bookmark_archives').select((s) => s.fn.sum<number | string>('size').as('bytes')).where('html', 'is not', null).where('bookmark_id', 'in', [kept.id]).executeTakeFirstOrThrow();
    expect(Number(stored.bytes)).toBeGreaterThan(0);
  });

  it('deletes the copy with its bookmark', async () => {
    const bookmark = await save(`${pages.origin}/article?deleted`);
    await settled(bookmark.id);
    expect((await t.app.inject({ method: 'DELETE', url: `/bookmarks/${bookmark.id}`, headers: bearer(token) })).statusCode).toBe(204);
    const rows = await t.storage.db.selectFrom('bookmark_archives').select('bookmark_id').where('bookmark_id', '=', bookmark.id).execute();
    expect(rows).toEqual([]);
  });
});

describe.each(testDialects)('the kept-copy quota on %s', (dialect) => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await testAppOn(dialect, { env: { ALLOW_SIGNUP: 'true', PREVIEW_ALLOW_PRIVATE: 'true', ARCHIVE_QUOTA_MB: '1' } });
    token = (await registerUser(t.app)).idToken;
    return t.close;
  });

  const upload = (app: FastifyInstance, id: number, page: string) => {
    const body = multipart([['file', Buffer.from(page), 'page.html']]);
    return app.inject({ method: 'POST', url: `/bookmarks/${id}/archive/upload`, headers: { ...bearer(token), ...body.headers }, payload: body.payload });
  };

  it('refuses a copy past the quota with a 413 that says so, keeping nothing', async () => {
    const first = await bookmarksClient(t.app, token).create({ title: 'a', link: 'http://127.0.0.1:1/a' });
    const second = await bookmarksClient(t.app, token).create({ title: 'b', link: 'http://127.0.0.1:1/b' });
    // About 300 KB of text, kept as HTML and as text: 0.6 MB of the 1 MB.
    const big = `<html><head><title>Big</title></head><body><article>${paragraphs('A long read. '.repeat(40), 500)}</article></body></html>`;
    expect((await upload(t.app, first.id, big)).statusCode).toBe(200);
    const refused = await upload(t.app, second.id, big);
    expect(refused.statusCode).toBe(413);
    expect(ErrorReply.parse(refused.json()).message).toMatch(/^Kept copies would take 1\.\d MB of your 1 MB \(ARCHIVE_QUOTA_MB\)/);
    const copy = await t.app.inject({ url: `/bookmarks/${second.id}/archive`, headers: bearer(token) });
    // The failed fetch after the save is all there is: no copy.
    expect(BookmarkArchive.safeParse(copy.json()).data?.status ?? 'none').not.toBe('kept');
    // Replacing the first copy with itself is within the quota.
    expect((await upload(t.app, first.id, big)).statusCode).toBe(200);
  });
});

describe.each(testDialects)('kept copies across a restart on %s', (dialect) => {
  it('leaves the fetch a stopping server was making pending, and makes it at the next start', async () => {
    const database = await createTestDatabase(dialect);
    // Each server's request for the page waits here until the test answers it.
    const waiting: Array<{ answer: () => void }> = [];
    let asked: () => void = () => {};
    const askedAgain = () => new Promise<void>((resolve) => (asked = resolve));
    const firstAsked = askedAgain();
    const pages = await startPageServer({
      '/story': (request, response) => {
        waiting.push({ answer: () => html(article('After the restart', 'Kept by the next server.'))(request, response) });
        asked();
      },
      '/pic.png': html(PNG, 'image/png'),
    });
    const env = { ALLOW_SIGNUP: 'true', PREVIEW_ALLOW_PRIVATE: 'true' };
    try {
      const first = await buildTestApp(database, { env });
      const token = (await registerUser(first.app)).idToken;
      const bookmark = await bookmarksClient(first.app, token).create({ title: 'Story', link: `${pages.origin}/story` });
      await firstAsked;
      await first.close();
      const secondAsked = askedAgain();
      const second = await buildTestApp(database, { env });
      try {
        const copy = () => second.app.inject({ url: `/bookmarks/${bookmark.id}/archive`, headers: bearer(token) }).then((reply) => BookmarkArchive.parse(reply.json()));
        await second.app.ready();
        // The next server asks for the page again, the copy pending until the page answers it.
        await secondAsked;
        expect((await copy()).status).toBe('pending');
        waiting.at(-1)!.answer();
        await vi.waitFor(async () => expect(await copy()).toMatchObject({ status: 'kept', title: 'After the restart', images: 1 }), { timeout: 15_000, interval: 20 });
      } finally {
        await second.close();
      }
    } finally {
      await pages.close();
      await database.drop();
    }
  });
});
