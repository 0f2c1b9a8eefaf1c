import { sql } from 'kysely';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { BookmarkArchive } from '../../../../contract/bookmark-archives.ts';
import type { Bookmark, BookmarkSearchResult } from '../../../../contract/bookmarks.ts';
import { ErrorReply } from '../../../../contract/errors.ts';
import { type BookmarksClient, bookmarksClient } from '../../test/bookmarks-client.ts';
import { multipart } from '../../test/multipart.ts';
import { html, type PageServer, startPageServer } from '../../test/page-server.ts';
import { workOutStaleData } from '../../services.ts';
import { pageTexts } from '../bookmarks.search.ts';
import { bearer, registerUser, type TestApp, testAppOn, testDialects } from '../../test/test-app.ts';

const MINUTE = 60 * 1000;
/** An article readability keeps, with `words` in its paragraphs. */
const article = (title: string, words: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><article><h1>${title}</h1>${Array.from(
    { length: 8 },
    (_, i) => `<p>Paragraph ${i + 1} of an article that goes on at some length, as articles do. ${i === 4 ? words : ''}</p>`,
  ).join('\n')}</article></body></html>`;

describe.each(testDialects)('search of kept pages’ text on %s', (dialect) => {
  let t: TestApp;
  let pages: PageServer;
  let alice: BookmarksClient;
  let aliceToken: string;
  let aliceId: string;
  let bob: BookmarksClient;
  let bobToken: string;

  beforeAll(async () => {
    pages = await startPageServer({ '/fetched': html(article('Fetched by the server', 'A quokka grins at the camera.')) });
    t = await testAppOn(dialect, { env: { ALLOW_SIGNUP: 'true', PREVIEW_ALLOW_PRIVATE: 'true' } });
    ({ idToken: aliceToken, user: { uid: aliceId } } = await registerUser(t.app));
    bobToken = (await registerUser(t.app)).idToken;
    alice = bookmarksClient(t.app, aliceToken);
    bob = bookmarksClient(t.app, bobToken);
    return async () => {
      await t.close();
      await pages.close();
    };
  });

  /** The copy once the fetch its save started has ended. */
  const settled = (id: number, token: string) =>
    vi.waitFor(
      async () => {
        const copy = BookmarkArchive.parse((await t.app.inject({ url: `/bookmarks/${id}/archive`, headers: bearer(token) })).json());
        if (copy.status === 'pending') throw new Error('still fetching');
        return copy;
      },
      { timeout: 15_000, interval: 20 },
    );

  /** A bookmark of an unreachable page, indexed, its page then sent from the browser with `words` in it. */
  async function keptWith(client: BookmarksClient, token: string, draft: { title: string; tags?: string; link?: string }, words: string) {
    const bookmark = await client.createIndexed({ link: `http://127.0.0.1:1/${encodeURIComponent(draft.title)}`, ...draft });
    await settled(bookmark.id, token);
    await upload(bookmark.id, token, article(draft.title, words));
    t.clock.advance(MINUTE);
    return bookmark;
  }
  async function upload(id: number, token: string, page: string) {
    const body = multipart([['file', Buffer.from(page), 'page.html']]);
    const response = await t.app.inject({ method: 'POST', url: `/bookmarks/${id}/archive/upload`, headers: { ...bearer(token), ...body.headers }, payload: body.payload });
    expect(response.statusCode, response.body).toBe(200);
  }
  const ids = (result: BookmarkSearchResult) => result.bookmarks.map((bookmark) => bookmark.id);

  it('finds a bookmark by a word only in its page, with a snippet of where it is', async () => {
    const kept = await keptWith(alice, aliceToken, { title: 'Marsupials of the south' }, 'The Wallaby Ägyptisch family lives here.');
    for (const fields of [undefined, ['text' as const], ['title' as const, 'text' as const]]) {
      const result = await alice.search({ key_words: ['wallab'], ...(fields ? { fields } : {}) });
      expect(ids(result)).toEqual([kept.id]);
      const snippet = result.snippets?.[String(kept.id)] ?? '';
      expect(snippet).toContain('The \u0002Wallaby\u0003 Ägyptisch family lives here.');
      expect(snippet.startsWith('…') && snippet.endsWith('…')).toBe(true);
    }
    // Folded as the bookmarks' own words are, and every word required, from the page alone.
    expect(ids(await alice.search({ key_words: ['agyptisch', 'FAMILY'], fields: ['text'] }))).toEqual([kept.id]);
    expect((await alice.search({ key_words: ['wallaby', 'kangaroo'] })).total).toBe(0);
  });

  it('does not look in the page when "Page Text" is not chosen, and gives no snippet then', async () => {
    await keptWith(alice, aliceToken, { title: 'Birds of the north' }, 'A ptarmigan in winter white.');
    const result = await alice.search({ key_words: ['ptarmigan'], fields: ['title', 'link', 'note', 'tags'] });
    expect(result.total).toBe(0);
    expect(result.snippets).toBeUndefined();
  });

  it('matches all the words in the entry or all in the page, and gives snippets only to those found in the page', async () => {
    const byTitle = await alice.createIndexed({ title: 'Okapi sightings', link: 'http://127.0.0.1:1/okapi', tags: 'zoo' });
    await settled(byTitle.id, aliceToken);
    t.clock.advance(MINUTE);
    const byPage = await keptWith(alice, aliceToken, { title: 'Forest animals', tags: 'zoo, forest' }, 'An okapi sighting in the Ituri forest.');
    const result = await alice.search({ key_words: ['okapi', 'sight'] });
    expect(ids(result)).toEqual([byPage.id, byTitle.id]);
    expect(Object.keys(result.snippets ?? {})).toEqual([String(byPage.id)]);
    // Facets count every match, by either side.
    expect(result.tag_groups).toEqual([
      { key: 'zoo', doc_count: 2 },
      { key: 'forest', doc_count: 1 },
    ]);
    expect(result.host_groups).toEqual([{ key: '127.0.0.1', doc_count: 2 }]);
    expect(ids(await alice.search({ key_words: ['okapi'], tags: ['forest'] }))).toEqual([byPage.id]);
    // One word in the title and another only in the page is neither side's.
    expect((await alice.search({ key_words: ['okapi', 'ituri'], fields: ['title'] })).total).toBe(0);
    expect(ids(await alice.search({ key_words: ['okapi', 'ituri'] }))).toEqual([byPage.id]);
  });

  it('never finds another user’s page', async () => {
    const bobs = await keptWith(bob, bobToken, { title: 'Bob’s reading' }, 'The narwhal tusk is a tooth.');
    expect((await alice.search({ key_words: ['narwhal'] })).total).toBe(0);
    expect(ids(await bob.search({ key_words: ['narwhal'] }))).toEqual([bobs.id]);
  });

  it('finds a page kept again by its new words and no longer by its old ones', async () => {
    const bookmark = await keptWith(alice, aliceToken, { title: 'Changing page' }, 'First version mentions a capybara.');
    expect(ids(await alice.search({ key_words: ['capybara'] }))).toEqual([bookmark.id]);
    await upload(bookmark.id, aliceToken, article('Changing page', 'Second version mentions an axolotl.'));
    expect((await alice.search({ key_words: ['capybara'] })).total).toBe(0);
    expect(ids(await alice.search({ key_words: ['axolotl'] }))).toEqual([bookmark.id]);
  });

  it('finds a page the server fetched', async () => {
    const bookmark = await alice.createIndexed({ title: 'A fetched page', link: `${pages.origin}/fetched` });
    expect((await settled(bookmark.id, aliceToken)).status).toBe('kept');
    const result = await alice.search({ key_words: ['quokka'] });
    expect(ids(result)).toEqual([bookmark.id]);
    expect(result.snippets?.[String(bookmark.id)]).toContain('\u0002quokka\u0003');
  });

  it('drops the words of a deleted bookmark’s page', async () => {
    const bookmark: Bookmark = await keptWith(alice, aliceToken, { title: 'Short-lived' }, 'A mayfly lives for a day.');
    expect(ids(await alice.search({ key_words: ['mayfly'] }))).toEqual([bookmark.id]);
    expect((await alice.inject('DELETE', `/bookmarks/${bookmark.id}`)).statusCode).toBe(204);
    expect((await alice.search({ key_words: ['mayfly'] })).total).toBe(0);
    const left =
      dialect === 'sqlite'
        ? await sql<{ n: number }>`select count(*) as n from bookmark_page_fts where bookmark_page_fts match 'mayfly'`.execute(t.storage.db)
        : await sql<{ n: number }>`select count(*)::int as n from bookmark_archives where text_search @@ 'mayfly'::tsquery`.execute(t.storage.db);
    expect(Number(left.rows[0]?.n)).toBe(0);
  });

  it('indexes the copies kept before their words were, as the server starts', async () => {
    const bookmark = await alice.createIndexed({ title: 'Kept long ago', link: 'http://127.0.0.1:1/long-ago' });
    await settled(bookmark.id, aliceToken);
    // A copy as migration 0033 left it: its text, no words.
    await t.storage.db
      .updateTable('bookmark_archives')
      .set({ status: 'kept', html: '<p>An old pangolin.</p>', text: 'An old pangolin.', kept_at: 1 })
      .where('bookmark_id', '=', bookmark.id)
      .execute();
    expect((await alice.search({ key_words: ['pangolin'] })).total).toBe(0);
    await sql`insert into stale_derived_data (name) values ('bookmarks.page_words')`.execute(t.storage.db);
    expect(await workOutStaleData(t.storage)).toEqual(['bookmarks.page_words']);
    const result = await alice.search({ key_words: ['pangolin'] });
    expect(ids(result)).toEqual([bookmark.id]);
    expect(result.snippets).toEqual({ [String(bookmark.id)]: 'An old \u0002pangolin\u0003.' });
  });

  it('reads the texts of a page of results by their ids, the owner\'s alone', async () => {
    const hers = await keptWith(alice, aliceToken, { title: 'Hers to read' }, 'A tapir naps.');
    const his = await keptWith(bob, bobToken, { title: 'His to read' }, 'A tapir swims.');
    const texts = await pageTexts(aliceId, [hers.id, his.id]).execute(t.storage.db);
    expect(texts.rows.map((row) => Number(row.bookmark_id))).toEqual([hers.id]);
    if (dialect === 'sqlite') {
      // SQLite keeps no statistics here: written otherwise, it walked every kept page of the owner.
      const plan = await sql<{ detail: string }>`explain query plan ${pageTexts('owner', Array.from({ length: 20 }, (_, i) => i + 1))}`.execute(t.storage.db);
      expect(plan.rows.map((row) => row.detail).join('\n')).not.toContain('bookmark_archives_owner');
    }
  });

  it('refuses a field it does not know with 400', async () => {
    const response = await alice.inject('POST', '/api/bookmarks/query', { key_words: ['okapi'], fields: ['text', 'body'] });
    expect(response.statusCode).toBe(400);
    expect(ErrorReply.parse(response.json()).message).toContain('must be among title, link, note, tags, text');
  });
});
