import { strFromU8, unzipSync } from 'fflate';
import PostalMime from 'postal-mime';
import { beforeAll, describe, expect, it } from 'vitest';
import { NewAppPassword } from '../../../../contract/app-passwords.ts';
import { EReader, SendBookReply } from '../../../../contract/e-readers.ts';
import { bookmarksClient } from '../../test/bookmarks-client.ts';
import { multipart } from '../../test/multipart.ts';
import { ACQUISITION, checkedFeed, entryTitled, hrefOf, NAVIGATION, REL } from '../../test/opds-feeds.ts';
import { bearer, registerUser, type TestApp, testAppOn, testDialects } from '../../test/test-app.ts';
import { startTestSmtp, type TestSmtp } from '../../test/test-smtp.ts';

const page = (title: string, words: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title><meta property="og:site_name" content="The Test Times"></head><body><article><h1>${title}</h1><p class="byline">By Ada Writer</p>${Array.from(
    { length: 10 },
    (_, at) => `<p>${words} Paragraph ${at + 1} goes on about it at some length, as articles do.</p>`,
  ).join('')}<script>fetch('/beacon')</script></article></body></html>`;

describe.each(testDialects)('kept articles for e-readers (issue 39) on %s', (dialect) => {
  let t: TestApp;
  let smtp: TestSmtp;
  let token: string;
  let otherToken: string;
  let basic: { authorization: string };
  let kept: { id: number };
  let bare: { id: number };

  beforeAll(async () => {
    smtp = await startTestSmtp();
    t = await testAppOn(dialect, { env: { ALLOW_SIGNUP: 'true', SMTP_URL: smtp.url, MAIL_FROM: 'organiser@example.org' } });
    const owner = await registerUser(t.app);
    token = owner.idToken;
    otherToken = (await registerUser(t.app)).idToken;
    const made = await t.app.inject({ method: 'POST', url: '/api/users/me/app-passwords', payload: { name: 'KOReader' }, headers: bearer(token) });
    const { password } = NewAppPassword.parse(made.json());
    basic = { authorization: `Basic ${Buffer.from(`${owner.user.email}:${password}`).toString('base64')}` };
    // Links the server cannot reach: the copies come from the browser, as a SingleFile capture.
    kept = await bookmarksClient(t.app, token).create({ title: 'Bread, slowly', link: 'http://127.0.0.1:1/bread' });
    bare = await bookmarksClient(t.app, token).create({ title: 'Nothing kept', link: 'http://127.0.0.1:1/nothing' });
    const body = multipart([['file', Buffer.from(page('Slow bread', 'Flour, water and time make bread.')), 'page.html']]);
    const uploaded = await t.app.inject({ method: 'POST', url: `/bookmarks/${kept.id}/archive/upload`, headers: { ...bearer(token), ...body.headers }, payload: body.payload });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    return async () => {
      await t.close();
      await smtp.close();
    };
  });

  const get = (url: string, headers: Record<string, string> = basic) => t.app.inject({ url, headers });

  it('lists the kept articles in a feed of their own, from the root, each with its EPUB and the page', async () => {
    const root = await get('/opds');
    expect(root.headers['content-type']).toContain(NAVIGATION);
    const articles = entryTitled(checkedFeed(root.body, 'navigation'), 'Articles');
    expect(articles.links?.[0]?.type).toBe(ACQUISITION);

    const response = await get(new URL(hrefOf(articles)).pathname);
    expect(response.headers['content-type']).toContain(ACQUISITION);
    const feed = checkedFeed(response.body, 'acquisition');
    expect(feed.entries?.map((entry) => entry.title?.value)).toEqual(['Slow bread']);
    const entry = feed.entries![0]!;
    expect(entry.authors?.[0]?.name).toBe('Ada Writer');
    expect(entry.summary?.value).toMatch(/^Flour, water and time make bread\./);
    expect(entry.links?.find((link) => link.rel === 'alternate')?.href).toBe('http://127.0.0.1:1/bread');
    const epubLink = entry.links?.find((link) => link.rel === REL.acquisition);
    expect(epubLink?.type).toBe('application/epub+zip');

    const epub = await t.app.inject({ url: new URL(epubLink!.href!).pathname, headers: basic });
    expect(epub.statusCode).toBe(200);
    expect(epub.headers['content-type']).toBe('application/epub+zip');
    expect(epub.headers['content-disposition']).toContain('Slow bread.epub');
    const files = unzipSync(epub.rawPayload);
    const article = strFromU8(files['OEBPS/article.xhtml']!);
    expect(article).toContain('Flour, water and time make bread. Paragraph 10');
    expect(article).not.toContain('beacon');
    expect(strFromU8(files['OEBPS/content.opf']!)).toContain('<dc:creator>Ada Writer</dc:creator>');
  });

  it('answers 404 for another person’s article, a bookmark with no copy, and the shared books key; 400 for an id that is none', async () => {
    expect((await get(`/opds/articles/${kept.id}/epub`, bearer(otherToken))).statusCode).toBe(404);
    expect((await get(`/opds/articles/${bare.id}/epub`)).statusCode).toBe(404);
    expect((await get('/opds/articles/999999999/epub')).statusCode).toBe(404);
    expect((await get('/opds/articles/bread/epub')).statusCode).toBe(400);
    const others = checkedFeed((await get('/opds/articles', bearer(otherToken))).body, 'acquisition');
    expect(others.entries ?? []).toEqual([]);
    expect((await get('/opds/articles/0/epub')).statusCode).toBe(400);
  });

  const addDevice = async (token: string, body: object) => {
    const response = await t.app.inject({ method: 'POST', url: '/api/users/me/e-readers', payload: body, headers: bearer(token) });
    expect(response.statusCode, response.body).toBe(200);
    return EReader.parse(response.json());
  };
  const send = (token: string, id: number, body: object) => t.app.inject({ method: 'POST', url: `/bookmarks/${id}/send`, payload: body, headers: bearer(token) });

  it('mails the article as an EPUB to one of the person’s e-readers', async () => {
    const kindle = await addDevice(token, { name: 'Kindle', email: 'articles@kindle.com', kind: 'kindle' });
    const before = smtp.received.length;
    const response = await send(token, kept.id, { device_id: kindle.id });
    expect(response.statusCode, response.body).toBe(200);
    const reply = SendBookReply.parse(response.json());
    expect(reply).toMatchObject({ device: 'Kindle', email: 'articles@kindle.com', format: 'epub', delivery: 'sent' });
    await smtp.waitFor(before + 1);
    const mail = smtp.received[before]!;
    expect(mail.to).toEqual(['articles@kindle.com']);
    const [attachment, ...more] = (await PostalMime.parse(mail.raw)).attachments;
    expect(more).toEqual([]);
    expect(attachment!.filename).toBe('Slow bread.epub');
    expect(attachment!.mimeType).toBe('application/epub+zip');
    const bytes = new Uint8Array(attachment!.content as ArrayBuffer);
    expect(bytes.length).toBe(reply.size);
    expect(strFromU8(unzipSync(bytes)['OEBPS/article.xhtml']!)).toContain('Flour, water and time make bread.');
  });

  it('sends nothing for another person’s article or device, a bookmark with no copy, or a bad body', async () => {
    const mine = await addDevice(token, { name: 'Small', email: 'small@example.org', kind: 'other', max_mb: 1 });
    const theirs = await addDevice(otherToken, { name: 'Theirs', email: 'theirs@example.org', kind: 'other' });
    const before = smtp.received.length;
    expect((await send(otherToken, kept.id, { device_id: theirs.id })).statusCode).toBe(404);
    expect((await send(token, kept.id, { device_id: theirs.id })).statusCode).toBe(404);
    expect((await send(token, bare.id, { device_id: mine.id })).statusCode).toBe(404);
    expect((await send(token, kept.id, {})).statusCode).toBe(400);
    expect((await send(token, kept.id, { device_id: mine.id, format: 'pdf' })).statusCode).toBe(400);
    expect(smtp.received.length).toBe(before);
  });

  it('lists only what is still to read: an article marked read leaves the feed, its EPUB still there', async () => {
    const marked = await t.app.inject({ method: 'PUT', url: `/bookmarks/${kept.id}/state`, payload: { state: 'read' }, headers: bearer(token) });
    expect(marked.statusCode, marked.body).toBe(200);
    const feed = checkedFeed((await get('/opds/articles')).body, 'acquisition');
    expect(feed.entries ?? []).toEqual([]);
    expect((await get(`/opds/articles/${kept.id}/epub`)).statusCode).toBe(200);
    const unread = await t.app.inject({ method: 'PUT', url: `/bookmarks/${kept.id}/state`, payload: { state: 'unread' }, headers: bearer(token) });
    expect(unread.statusCode).toBe(200);
    expect(checkedFeed((await get('/opds/articles')).body, 'acquisition').entries?.map((entry) => entry.title?.value)).toEqual(['Slow bread']);
  });
});
