import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreatedApiToken } from '../../../../contract/api-tokens.ts';
import { Bookmark } from '../../../../contract/bookmarks.ts';
import {
  LinkdingBookmark,
  LinkdingBookmarkPage,
  LinkdingCheck,
  LinkdingDetail,
  LinkdingFieldErrors,
  LinkdingProfile,
  LinkdingTag,
  LinkdingTagPage,
} from '../../../../contract/linkding.ts';
import { html, type PageServer, startPageServer } from '../../test/page-server.ts';
import { bearer, registerUser, type TestApp, testAppOn, testDialects } from '../../test/test-app.ts';

/**
 * linkding's REST API under /linkding, driven with the requests linkding's browser extension makes,
 * as its published source writes them (sissbruecker/linkding-extension at 00f9e56, `src/linkding.js`,
 * class LinkdingApi): every call sends `Authorization: Token <token>` to `${baseUrl}/api/…`;
 * - testConnection: GET `/api/bookmarks/?limit=1`, reads `body.results`;
 * - getUserProfile: GET `/api/user/profile/` (the popup reads `enable_sharing`, `src/popup-form.js`);
 * - check: GET `/api/bookmarks/check/?url=${encodeURIComponent(url)}`, reads `bookmark`, `metadata.title`,
 *   `metadata.description` and `auto_tags`;
 * - saveBookmark: POST `/api/bookmarks/?disable_scraping` (plus `&disable_html_snapshot` when it runs
 *   SingleFile) with JSON {url, title, description, notes, tag_names, unread, shared}; expects 201, a 400's body
 *   as validation errors;
 * - getTags: GET `/api/tags/?limit=5000`, reads `results[].name`;
 * - search (the omnibox, `src/background.js`): GET `/api/bookmarks/?q=${encodeURIComponent(text)}&limit=5`;
 * - deleteBookmark: DELETE `/api/bookmarks/${id}/`, expects 204; getBookmark: GET `/api/bookmarks/${id}/`.
 * The apps' calls beyond those (archive, unarchive, PUT, PATCH, the archived list, tags) follow linkding's
 * `docs/src/content/docs/api.md`.
 */
describe.each(testDialects)('linkding’s REST API on %s', (dialect) => {
  let t: TestApp;
  let pages: PageServer;

  beforeAll(async () => {
    pages = await startPageServer({
      '/article': html('<title>An article</title><meta name="description" content="What it says">'),
      '/other': html('<title>Another</title>'),
    });
    // The check reads the page through the guarded fetcher; the local page server needs the setting that is off by default.
    t = await testAppOn(dialect, { env: { ALLOW_SIGNUP: 'true', PREVIEW_ALLOW_PRIVATE: 'true' } });
  });
  afterAll(async () => {
    await t.close();
    await pages.close();
  });

  /** A new user and a personal API token of theirs, as they would paste it into the extension's options. */
  async function newUser(scope: 'read' | 'write' = 'write') {
    const { idToken } = await registerUser(t.app);
    const response = await t.app.inject({ method: 'POST', url: '/api/users/me/tokens', headers: bearer(idToken), payload: { name: 'linkding extension', scope } });
    expect(response.statusCode, response.body).toBe(200);
    const { token, id } = CreatedApiToken.parse(response.json());
    const headers = { authorization: `Token ${token}` };
    const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, payload?: object) =>
      t.app.inject({ method, url: `/linkding${path}`, headers: payload ? { ...headers, 'content-type': 'application/json' } : headers, ...(payload ? { payload } : {}) });
    return { idToken, token, tokenId: id, call };
  }
  type User = Awaited<ReturnType<typeof newUser>>;

  /** The extension's saveBookmark: its body, its query and the 201 it waits for. */
  async function save(user: User, body: object): Promise<LinkdingBookmark> {
    const response = await user.call('POST', '/api/bookmarks/?disable_scraping', body);
    expect(response.statusCode, response.body).toBe(201);
    return LinkdingBookmark.parse(response.json());
  }
  const popupForm = (url: string, fields: object = {}) => ({
    url,
    title: 'A title',
    description: 'A description',
    notes: undefined,
    tag_names: ['reading', 'rust'],
    unread: true,
    shared: false,
    ...fields,
  });
  const appBookmark = async (user: User, id: number) => Bookmark.parse((await t.app.inject({ url: `/bookmarks/${id}`, headers: bearer(user.idToken) })).json());
  const listOf = async (user: User, path: string) => {
    const response = await user.call('GET', path);
    expect(response.statusCode, response.body).toBe(200);
    return LinkdingBookmarkPage.parse(response.json());
  };

  it('answers the extension’s connection test and profile call', async () => {
    const alice = await newUser();
    expect((await listOf(alice, '/api/bookmarks/?limit=1')).results).toEqual([]);
    const profile = await alice.call('GET', '/api/user/profile/');
    expect(profile.statusCode).toBe(200);
    expect(LinkdingProfile.parse(profile.json())).toMatchObject({ enable_sharing: false });
  });

  it('checks a link before saving (metadata from the page), saves it with tags as unread, and checks it again', async () => {
    const alice = await newUser();
    const url = `${pages.origin}/article`;
    const before = await alice.call('GET', `/api/bookmarks/check/?url=${encodeURIComponent(url)}`);
    expect(before.statusCode, before.body).toBe(200);
    expect(LinkdingCheck.parse(before.json())).toEqual({
      bookmark: null,
      metadata: { url, title: 'An article', description: 'What it says', preview_image: null },
      auto_tags: [],
    });
    const saved = await save(alice, popupForm(url, { notes: 'My own words' }));
    expect(saved).toEqual({
      id: saved.id,
      url,
      title: 'A title',
      description: 'A description\n\nMy own words',
      notes: '',
      web_archive_snapshot_url: expect.stringMatching(/^https:\/\/web\.archive\.org\/web\/\d{14}\//),
      favicon_url: null,
      preview_image_url: null,
      is_archived: false,
      unread: true,
      shared: false,
      tag_names: ['reading', 'rust'],
      date_added: new Date(t.clock.now()).toISOString(),
      date_modified: new Date(t.clock.now()).toISOString(),
      website_title: null,
      website_description: null,
    });
    expect(await appBookmark(alice, saved.id)).toMatchObject({ note: 'A description\n\nMy own words', tags: ['reading', 'rust'], state: 'unread' });
    const after = LinkdingCheck.parse((await alice.call('GET', `/api/bookmarks/check/?url=${encodeURIComponent(url)}`)).json());
    expect(after.bookmark).toEqual(saved);
  });

  it('checks a page it cannot read (a browser page, a 404) with empty metadata, not an error', async () => {
    const alice = await newUser();
    for (const url of ['chrome://newtab/', `${pages.origin}/missing`, 'not a url']) {
      const response = await alice.call('GET', `/api/bookmarks/check/?url=${encodeURIComponent(url)}`);
      expect(response.statusCode, url).toBe(200);
      expect(LinkdingCheck.parse(response.json())).toEqual({ bookmark: null, metadata: { url, title: null, description: null, preview_image: null }, auto_tags: [] });
    }
    expect(LinkdingFieldErrors.parse((await alice.call('GET', '/api/bookmarks/check/')).json())).toEqual({ url: ['url is required'] });
  });

  it('saves a link already saved as an update of that bookmark (201, same id), and "unread: false" as read', async () => {
    const alice = await newUser();
    const first = await save(alice, popupForm(`${pages.origin}/other`));
    const again = await save(alice, popupForm(`${pages.origin}/other`, { title: 'Renamed', tag_names: ['later'], unread: false }));
    expect(again).toMatchObject({ id: first.id, title: 'Renamed', tag_names: ['later'], unread: false, is_archived: false });
    expect((await listOf(alice, '/api/bookmarks/')).count).toBe(1);
    expect((await appBookmark(alice, first.id)).state).toBe('read');
  });

  it('gives the link as the title when the extension sends an empty one', async () => {
    const alice = await newUser();
    const saved = await save(alice, popupForm('https://example.org/untitled', { title: '', description: '' }));
    expect(saved).toMatchObject({ title: 'https://example.org/untitled', description: '' });
  });

  it('lists newest first with limit and offset, the next and previous pages as addresses', async () => {
    const alice = await newUser();
    for (const n of [1, 2, 3]) {
      await save(alice, popupForm(`https://example.org/${n}`, { title: `Number ${n}` }));
      t.clock.advance(1000);
    }
    const first = await listOf(alice, '/api/bookmarks/?limit=2');
    expect(first.results.map((bookmark) => bookmark.title)).toEqual(['Number 3', 'Number 2']);
    expect(first.count).toBe(3);
    expect(first.previous).toBeNull();
    expect(first.next).toMatch(/^http:\/\/[^/]+\/linkding\/api\/bookmarks\/\?limit=2&offset=2$/);
    const second = await listOf(alice, '/api/bookmarks/?limit=2&offset=2');
    expect(second.results.map((bookmark) => bookmark.title)).toEqual(['Number 1']);
    expect(second.next).toBeNull();
    expect(second.previous).toMatch(/\/linkding\/api\/bookmarks\/\?limit=2$/);
  });

  it('searches as the omnibox does (q and limit=5), by words, #tag and !unread', async () => {
    const alice = await newUser();
    await save(alice, popupForm('https://example.org/rust-book', { title: 'The Rust book', tag_names: ['rust'] }));
    await save(alice, popupForm('https://example.org/go-tour', { title: 'A tour of Go', tag_names: ['go'], unread: false }));
    await save(alice, popupForm('https://example.org/rust-async', { title: 'Async Rust', tag_names: ['rust', 'async'], unread: false }));
    const titles = async (q: string) =>
      (await listOf(alice, `/api/bookmarks/?q=${encodeURIComponent(q)}&limit=5`)).results.map((bookmark) => bookmark.title).sort();
    expect(await titles('rust')).toEqual(['Async Rust', 'The Rust book']);
    expect(await titles('tour')).toEqual(['A tour of Go']);
    expect(await titles('#async')).toEqual(['Async Rust']);
    expect(await titles('rust !unread')).toEqual(['The Rust book']);
    expect(await titles('#RUST !unread')).toEqual(['The Rust book']);
    expect(await titles('nothing-like-it')).toEqual([]);
  });

  it('gives the tags for the extension’s completion (limit=5000) and linkding’s tag calls', async () => {
    const alice = await newUser();
    await save(alice, popupForm('https://example.org/t', { tag_names: ['Zebra', 'apple'] }));
    const response = await alice.call('GET', '/api/tags/?limit=5000');
    expect(response.statusCode).toBe(200);
    const page = LinkdingTagPage.parse(response.json());
    expect(page.results.map((tag) => tag.name)).toEqual(['apple', 'Zebra']);
    expect(page).toMatchObject({ count: 2, next: null, previous: null });
    const apple = page.results[0]!;
    expect(LinkdingTag.parse((await alice.call('GET', `/api/tags/${apple.id}/`)).json())).toEqual(apple);
    const created = await alice.call('POST', '/api/tags/', { name: 'APPLE' });
    expect(created.statusCode).toBe(201);
    expect(LinkdingTag.parse(created.json())).toEqual(apple);
    const fresh = await alice.call('POST', '/api/tags/', { name: 'new-one' });
    expect(LinkdingTag.parse(fresh.json())).toMatchObject({ name: 'new-one' });
    expect(LinkdingFieldErrors.parse((await alice.call('POST', '/api/tags/', { name: ' ' })).json())).toEqual({ name: ['This field may not be blank.'] });
    expect((await alice.call('GET', '/api/tags/12345/')).statusCode).toBe(404);
  });

  it('archives and unarchives: the archived list holds it, the list does not, unarchived it is read', async () => {
    const alice = await newUser();
    const saved = await save(alice, popupForm('https://example.org/archive-me'));
    const archive = await alice.call('POST', `/api/bookmarks/${saved.id}/archive/`);
    expect(archive.statusCode).toBe(204);
    expect((await listOf(alice, '/api/bookmarks/')).count).toBe(0);
    const archived = await listOf(alice, '/api/bookmarks/archived/');
    expect(archived.results.map((bookmark) => [bookmark.id, bookmark.is_archived, bookmark.unread])).toEqual([[saved.id, true, false]]);
    expect((await listOf(alice, '/api/bookmarks/archived/?q=archive')).count).toBe(1);
    expect((await appBookmark(alice, saved.id)).state).toBe('archived');
    expect((await alice.call('POST', `/api/bookmarks/${saved.id}/unarchive/`)).statusCode).toBe(204);
    expect((await listOf(alice, '/api/bookmarks/')).results.map((bookmark) => [bookmark.is_archived, bookmark.unread])).toEqual([[false, false]]);
    expect((await listOf(alice, '/api/bookmarks/archived/')).count).toBe(0);
  });

  it('updates with PUT (url required, a field left out stays) and PATCH, refusing a link another bookmark has', async () => {
    const alice = await newUser();
    const one = await save(alice, popupForm('https://example.org/one', { title: 'One' }));
    const two = await save(alice, popupForm('https://example.org/two', { title: 'Two' }));
    t.clock.advance(1000);
    const put = await alice.call('PUT', `/api/bookmarks/${one.id}/`, { url: 'https://example.org/one-moved', tag_names: ['moved'] });
    expect(put.statusCode, put.body).toBe(200);
    expect(LinkdingBookmark.parse(put.json())).toMatchObject({
      id: one.id,
      url: 'https://example.org/one-moved',
      title: 'One',
      description: 'A description',
      tag_names: ['moved'],
      unread: true,
      date_modified: new Date(t.clock.now()).toISOString(),
    });
    const patched = await alice.call('PATCH', `/api/bookmarks/${one.id}/`, { title: 'One, patched', unread: false });
    expect(LinkdingBookmark.parse(patched.json())).toMatchObject({ title: 'One, patched', url: 'https://example.org/one-moved', unread: false });
    const clash = await alice.call('PATCH', `/api/bookmarks/${one.id}/`, { url: two.url });
    expect(clash.statusCode).toBe(400);
    expect(LinkdingFieldErrors.parse(clash.json())).toEqual({ url: ['A bookmark with this URL already exists.'] });
    const noUrl = await alice.call('PUT', `/api/bookmarks/${one.id}/`, { title: 'x' });
    expect(noUrl.statusCode).toBe(400);
    expect(Object.keys(LinkdingFieldErrors.parse(noUrl.json()))).toEqual(['url']);
    expect((await appBookmark(alice, one.id)).title).toBe('One, patched');
  });

  it('refuses bad fields with 400 naming each, saving nothing', async () => {
    const alice = await newUser();
    const cases: Array<[object, string[]]> = [
      [{ title: 'No link' }, ['url']],
      [{ url: 'javascript:alert(1)' }, ['url']],
      [{ url: 'https://example.org/x', tag_names: ['t'.repeat(101)] }, ['tag_names']],
      [{ url: 'https://example.org/x', unread: 'yes' }, ['unread']],
      [{ url: 'https://example.org/x', description: 'd'.repeat(6000), notes: 'n'.repeat(6000) }, ['description']],
    ];
    for (const [body, fields] of cases) {
      const response = await alice.call('POST', '/api/bookmarks/?disable_scraping', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(LinkdingFieldErrors.parse(response.json()))).toEqual(fields);
    }
    expect((await listOf(alice, '/api/bookmarks/')).count).toBe(0);
  });

  it('deletes (204), then the bookmark is 404 with linkding’s {detail}', async () => {
    const alice = await newUser();
    const saved = await save(alice, popupForm('https://example.org/delete-me'));
    expect((await alice.call('DELETE', `/api/bookmarks/${saved.id}/`)).statusCode).toBe(204);
    const gone = await alice.call('GET', `/api/bookmarks/${saved.id}/`);
    expect(gone.statusCode).toBe(404);
    expect(LinkdingDetail.parse(gone.json()).detail).toBe('Bookmark not found');
    expect((await alice.call('DELETE', `/api/bookmarks/${saved.id}/`)).statusCode).toBe(404);
  });

  it('answers 404 for another user’s bookmark on every call, changing nothing', async () => {
    const alice = await newUser();
    const bob = await newUser();
    const hers = await save(alice, popupForm('https://example.org/hers'));
    for (const [method, path, body] of [
      ['GET', `/api/bookmarks/${hers.id}/`],
      ['PUT', `/api/bookmarks/${hers.id}/`, { url: 'https://example.org/mine' }],
      ['PATCH', `/api/bookmarks/${hers.id}/`, { title: 'Mine' }],
      ['POST', `/api/bookmarks/${hers.id}/archive/`],
      ['POST', `/api/bookmarks/${hers.id}/unarchive/`],
      ['DELETE', `/api/bookmarks/${hers.id}/`],
    ] as const) {
      expect((await bob.call(method, path, body)).statusCode, `${method} ${path}`).toBe(404);
    }
    expect(LinkdingCheck.parse((await bob.call('GET', `/api/bookmarks/check/?url=${encodeURIComponent(hers.url)}`)).json()).bookmark).toBeNull();
    expect((await listOf(bob, '/api/bookmarks/?q=hers')).count).toBe(0);
    expect(LinkdingBookmark.parse((await alice.call('GET', `/api/bookmarks/${hers.id}/`)).json())).toEqual(hers);
  });

  it('refuses a missing, wrong or revoked token and a session’s token with 401; a read-only token may only read', async () => {
    const alice = await newUser();
    const path = '/linkding/api/bookmarks/?limit=1';
    const status = async (authorization?: string) => {
      const response = await t.app.inject({ url: path, headers: authorization ? { authorization } : {} });
      if (response.statusCode === 401) expect(LinkdingDetail.parse(response.json()).detail).not.toBe('');
      return response.statusCode;
    };
    expect(await status()).toBe(401);
    expect(await status('Token not-a-token')).toBe(401);
    expect(await status(`Token ${alice.token}x`)).toBe(401);
    expect(await status(`Bearer ${alice.idToken}`)).toBe(401);
    expect(await status(`Token ${alice.token}`)).toBe(200);
    expect(await status(`Bearer ${alice.token}`)).toBe(200);
    // The Token scheme is linkding's, taken on its routes only.
    expect((await t.app.inject({ url: '/bookmarks/', headers: { authorization: `Token ${alice.token}` } })).statusCode).toBe(401);
    const revoke = await t.app.inject({ method: 'DELETE', url: `/api/users/me/tokens/${alice.tokenId}`, headers: bearer(alice.idToken) });
    expect(revoke.statusCode, revoke.body).toBe(204);
    expect(await status(`Token ${alice.token}`)).toBe(401);
    const reader = await newUser('read');
    expect((await reader.call('GET', '/api/bookmarks/')).statusCode).toBe(200);
    expect((await reader.call('POST', '/api/bookmarks/?disable_scraping', popupForm('https://example.org/r'))).statusCode).toBe(403);
  });
});
