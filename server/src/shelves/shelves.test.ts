import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NewAppPassword } from '../../../contract/app-passwords.ts';
import { BookResults } from '../../../contract/books.ts';
import { ErrorReply } from '../../../contract/errors.ts';
import { HealthReply } from '../../../contract/health.ts';
import { HouseholdMembers, Shelf, ShelfBooks, Shelves } from '../../../contract/shelves.ts';
import { crawlOpds } from '../test/opds-crawl.ts';
import { ACQUISITION, checkedFeed, entryTitled, hrefOf, NAVIGATION, REL } from '../test/opds-feeds.ts';
import { bearer, registerUser, type TestApp, testAppOn, testDialects } from '../test/test-app.ts';

/** A Calibre library folder with its files and covers (ids 1–6). */
const FIXTURE_LIBRARY = path.join(import.meta.dirname, '../books/fixtures/library');
const BOOKS_KEY = 'a-shared-key-for-readers';

type Person = Awaited<ReturnType<typeof registerUser>>;

async function libraryLoaded(t: TestApp) {
  for (const until = Date.now() + 30_000; ; ) {
    const health = HealthReply.parse((await t.app.inject({ url: '/api/health' })).json());
    if (health.library?.last_load?.status === 'ok') return;
    if (Date.now() > until) throw new Error(`the library never loaded: ${JSON.stringify(health.library)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.each(testDialects)('shelves on %s', (dialect) => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'organiser-shelves-'));
  let t: TestApp;
  let owner: Person;
  let seer: Person;
  let adder: Person;
  let stranger: Person;
  /** Book ids by title. */
  const book: Record<string, string> = {};

  beforeAll(async () => {
    const library = path.join(work, 'Calibre Library');
    fs.cpSync(FIXTURE_LIBRARY, library, { recursive: true });
    t = await testAppOn(dialect, { env: { ALLOW_SIGNUP: 'true', BOOKS_API_KEY: BOOKS_KEY, CALIBRE_LIBRARY: library, DATA_DIR: path.join(work, 'data') } });
    await t.app.ready();
    await libraryLoaded(t);
    owner = await registerUser(t.app, { displayName: 'Olive Owner' });
    seer = await registerUser(t.app, { displayName: 'Sam Seer' });
    adder = await registerUser(t.app, { displayName: 'Ada Adder' });
    stranger = await registerUser(t.app, { displayName: 'Stan Stranger' });
    const all = BookResults.parse((await t.app.inject({ url: '/api/books?size=100', headers: bearer(owner.idToken) })).json());
    for (const one of all.books) book[one.title] = one.id;
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  const call = (who: Person, method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: bearer(who.idToken), ...(payload === undefined ? {} : { payload: payload as object }) });
  const list = async (who: Person, bookId?: string) => {
    const response = await call(who, 'GET', `/api/shelves${bookId ? `?book=${encodeURIComponent(bookId)}` : ''}`);
    expect(response.statusCode, response.body).toBe(200);
    return Shelves.parse(response.json());
  };
  const made = async (who: Person, name: string) => {
    const response = await call(who, 'POST', '/api/shelves', { name });
    expect(response.statusCode, response.body).toBe(201);
    return Shelf.parse(response.json());
  };
  const builtIn = async (who: Person, kind: Shelf['kind']) => (await list(who)).find((shelf) => shelf.kind === kind && shelf.access === 'owner')!;
  const booksOn = async (who: Person, shelfId: string) => {
    const response = await call(who, 'GET', `/api/shelves/${shelfId}/books`);
    expect(response.statusCode, response.body).toBe(200);
    return ShelfBooks.parse(response.json()).books.map((one) => one.title);
  };
  const refused = async (response: Awaited<ReturnType<typeof call>>, status: number) => {
    expect(response.statusCode, response.body).toBe(status);
    return ErrorReply.parse(response.json()).message;
  };

  it('gives each person "Want to read", "Reading" and "Read" first, then the shelves they name', async () => {
    const person = await registerUser(t.app);
    expect((await list(person)).map((shelf) => [shelf.name, shelf.kind, shelf.access, shelf.book_count])).toEqual([
      ['Want to read', 'want', 'owner', 0],
      ['Reading', 'reading', 'owner', 0],
      ['Read', 'read', 'owner', 0],
    ]);
    await made(person, 'Zebra stories');
    const holiday = await made(person, '  Holiday   reads ');
    expect(holiday.name).toBe('Holiday reads');
    expect((await list(person)).map((shelf) => shelf.name)).toEqual(['Want to read', 'Reading', 'Read', 'Holiday reads', 'Zebra stories']);
    // Another person's list has none of them.
    expect((await list(stranger)).map((shelf) => shelf.name)).toEqual(['Want to read', 'Reading', 'Read']);
  });

  it('refuses bad names with a 400, a name taken in any case with a 409, and changes nothing', async () => {
    const person = await registerUser(t.app);
    await made(person, 'Cookbooks');
    for (const payload of [{ name: '' }, { name: '   ' }, { name: 'x'.repeat(101) }, { name: 42 }, {}, { name: 'Fine', colour: 'red' }]) {
      await refused(await call(person, 'POST', '/api/shelves', payload), 400);
    }
    expect(await refused(await call(person, 'POST', '/api/shelves', { name: 'COOKBOOKS' }), 409)).toBe('You already have a shelf named "COOKBOOKS"');
    await refused(await call(person, 'POST', '/api/shelves', { name: 'reading' }), 409);
    expect((await list(person)).map((shelf) => shelf.name)).toEqual(['Want to read', 'Reading', 'Read', 'Cookbooks']);
    // Another person may use the name.
    await made(stranger, 'Cookbooks');
  });

  it('renames and deletes a named shelf; the built-in ones stay as they are', async () => {
    const person = await registerUser(t.app);
    const shelf = await made(person, 'Poetry');
    await made(person, 'Essays');
    const renamed = await call(person, 'PATCH', `/api/shelves/${shelf.id}`, { name: 'Poems' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(Shelf.parse(renamed.json()).name).toBe('Poems');
    await refused(await call(person, 'PATCH', `/api/shelves/${shelf.id}`, { name: 'essays' }), 409);
    await refused(await call(person, 'PATCH', `/api/shelves/${shelf.id}`, { name: '' }), 400);
    const reading = await builtIn(person, 'reading');
    expect(await refused(await call(person, 'PATCH', `/api/shelves/${reading.id}`, { name: 'Now' }), 400)).toMatch(/built in/);
    await refused(await call(person, 'DELETE', `/api/shelves/${reading.id}`), 400);
    expect((await call(person, 'DELETE', `/api/shelves/${shelf.id}`)).statusCode).toBe(204);
    await refused(await call(person, 'GET', `/api/shelves/${shelf.id}`), 404);
    expect((await list(person)).map((shelf) => shelf.name)).toEqual(['Want to read', 'Reading', 'Read', 'Essays']);
  });

  it('keeps a book on one reading status at a time, and on any named shelves besides', async () => {
    const person = await registerUser(t.app);
    const globe = book['The Globe']!;
    const [want, reading, read] = await Promise.all([builtIn(person, 'want'), builtIn(person, 'reading'), builtIn(person, 'read')]);
    const favourites = await made(person, 'Favourites');
    for (const shelf of [want, favourites]) expect((await call(person, 'PUT', `/api/shelves/${shelf.id}/books/${globe}`)).statusCode).toBe(200);
    expect((await call(person, 'PUT', `/api/shelves/${reading.id}/books/${globe}`)).statusCode).toBe(200);
    const holding = async () => (await list(person, globe)).filter((shelf) => shelf.holds_book).map((shelf) => shelf.name);
    expect(await holding()).toEqual(['Reading', 'Favourites']);
    expect((await call(person, 'PUT', `/api/shelves/${read.id}/books/${globe}`)).statusCode).toBe(200);
    // Twice is once.
    expect((await call(person, 'PUT', `/api/shelves/${read.id}/books/${globe}`)).statusCode).toBe(200);
    expect(await holding()).toEqual(['Read', 'Favourites']);
    expect(await booksOn(person, read.id)).toEqual(['The Globe']);
    expect(await booksOn(person, reading.id)).toEqual([]);
    const off = await call(person, 'DELETE', `/api/shelves/${read.id}/books/${globe}`);
    expect(Shelf.parse(off.json()).book_count).toBe(0);
    expect(await holding()).toEqual(['Favourites']);
    // Another person's statuses are their own.
    expect((await list(stranger, globe)).filter((shelf) => shelf.holds_book)).toEqual([]);
  });

  it('lists a shelf’s books last added first, with what the cards show', async () => {
    const person = await registerUser(t.app);
    const shelf = await made(person, 'Classics');
    for (const title of ['Les Misérables', 'The Science of Discworld', 'The Globe']) {
      t.clock.advance(1000);
      expect((await call(person, 'PUT', `/api/shelves/${shelf.id}/books/${book[title]}`)).statusCode).toBe(200);
    }
    const page = ShelfBooks.parse((await call(person, 'GET', `/api/shelves/${shelf.id}/books?size=2`)).json());
    expect(page).toMatchObject({ total: 3, files_served: true, shelf: { id: shelf.id, book_count: 3 } });
    const search = BookResults.parse((await t.app.inject({ url: '/api/books', headers: bearer(person.idToken) })).json());
    expect(page.library_folder).toBe(search.library_folder);
    expect(page.books.map((one) => [one.title, one.index])).toEqual([['The Globe', 0], ['The Science of Discworld', 1]]);
    const rest = ShelfBooks.parse((await call(person, 'GET', `/api/shelves/${shelf.id}/books?from=2&size=2`)).json());
    expect(rest.books.map((one) => one.title)).toEqual(['Les Misérables']);
    for (const query of ['from=-1', 'size=0', 'size=101', 'size=x', 'other=1']) {
      await refused(await call(person, 'GET', `/api/shelves/${shelf.id}/books?${query}`), 400);
    }
    expect(await refused(await call(person, 'PUT', `/api/shelves/${shelf.id}/books/no-such-book`), 404)).toBe('Book not found');
    expect(ShelfBooks.parse((await call(person, 'GET', `/api/shelves/${shelf.id}/books`)).json()).total).toBe(3);
  });

  it('gives each viewer of a shelf how far they have read its books, as the books page does', async () => {
    const shelf = await made(owner, 'Half read');
    for (const title of ['Les Misérables', 'The Globe']) {
      t.clock.advance(1000);
      expect((await call(owner, 'PUT', `/api/shelves/${shelf.id}/books/${book[title]}`)).statusCode).toBe(200);
    }
    expect((await call(owner, 'PUT', `/api/shelves/${shelf.id}/members`, { members: [{ user_id: seer.user.uid, access: 'see' }] })).statusCode).toBe(200);
    const read = async (who: Person, title: string, percentage: number) =>
      expect((await call(who, 'PUT', `/api/books/${book[title]}/position`, { percentage, device: 'Test' })).statusCode).toBe(200);
    await read(owner, 'The Globe', 0.42);
    await read(seer, 'Les Misérables', 0.5);
    await read(seer, 'The Science of Discworld', 0.9);
    const progressOn = async (who: Person) => ShelfBooks.parse((await call(who, 'GET', `/api/shelves/${shelf.id}/books`)).json()).progress;
    expect(await progressOn(owner)).toEqual({ [book['The Globe']!]: 0.42 });
    // Only the page's books, and only the viewer's own positions.
    expect(await progressOn(seer)).toEqual({ [book['Les Misérables']!]: 0.5 });
    const search = BookResults.parse((await t.app.inject({ url: '/api/books?size=100', headers: bearer(owner.idToken) })).json());
    expect(search.progress[book['The Globe']!]).toBe(0.42);
  });

  it('answers another person’s unshared shelf with a 404 to every call, and changes nothing', async () => {
    const shelf = await made(owner, 'Private');
    await call(owner, 'PUT', `/api/shelves/${shelf.id}/books/${book['The Globe']}`);
    const reading = await builtIn(owner, 'reading');
    for (const id of [shelf.id, reading.id, 'no-such-shelf']) {
      await refused(await call(stranger, 'GET', `/api/shelves/${id}`), 404);
      await refused(await call(stranger, 'GET', `/api/shelves/${id}/books`), 404);
      await refused(await call(stranger, 'PATCH', `/api/shelves/${id}`, { name: 'Mine now' }), 404);
      await refused(await call(stranger, 'DELETE', `/api/shelves/${id}`), 404);
      await refused(await call(stranger, 'PUT', `/api/shelves/${id}/members`, { members: [] }), 404);
      await refused(await call(stranger, 'PUT', `/api/shelves/${id}/books/${book['Les Misérables']}`), 404);
      await refused(await call(stranger, 'DELETE', `/api/shelves/${id}/books/${book['The Globe']}`), 404);
    }
    expect(await booksOn(owner, shelf.id)).toEqual(['The Globe']);
    expect((await list(owner)).find((one) => one.id === shelf.id)?.name).toBe('Private');
  });

  it('shares a named shelf with members of the household, to see it or to add to it', async () => {
    const household = HouseholdMembers.parse((await call(owner, 'GET', '/api/shelves/household')).json());
    expect(household.map((member) => member.display_name)).toEqual(expect.arrayContaining(['Ada Adder', 'Sam Seer', 'Stan Stranger']));
    expect(household.map((member) => member.id)).not.toContain(owner.user.uid);

    const shelf = await made(owner, 'Family reading');
    await call(owner, 'PUT', `/api/shelves/${shelf.id}/books/${book['The Globe']}`);
    const shared = await call(owner, 'PUT', `/api/shelves/${shelf.id}/members`, {
      members: [
        { user_id: seer.user.uid, access: 'see' },
        { user_id: adder.user.uid, access: 'add' },
      ],
    });
    expect(shared.statusCode, shared.body).toBe(200);
    expect(Shelf.parse(shared.json()).members.map((member) => [member.display_name, member.access])).toEqual([
      ['Ada Adder', 'add'],
      ['Sam Seer', 'see'],
    ]);

    const seen = (await list(seer)).find((one) => one.id === shelf.id);
    expect(seen).toMatchObject({ name: 'Family reading', access: 'see', owner: { display_name: 'Olive Owner' }, members: [], book_count: 1 });
    expect(await booksOn(seer, shelf.id)).toEqual(['The Globe']);
    await refused(await call(seer, 'PUT', `/api/shelves/${shelf.id}/books/${book['Les Misérables']}`), 403);
    await refused(await call(seer, 'DELETE', `/api/shelves/${shelf.id}/books/${book['The Globe']}`), 403);

    t.clock.advance(1000);
    expect((await call(adder, 'PUT', `/api/shelves/${shelf.id}/books/${book['Les Misérables']}`)).statusCode).toBe(200);
    expect(await booksOn(owner, shelf.id)).toEqual(['Les Misérables', 'The Globe']);
    expect(await booksOn(seer, shelf.id)).toEqual(['Les Misérables', 'The Globe']);

    // Only the owner renames, deletes and shares.
    for (const member of [seer, adder]) {
      await refused(await call(member, 'PATCH', `/api/shelves/${shelf.id}`, { name: 'Ours' }), 403);
      await refused(await call(member, 'DELETE', `/api/shelves/${shelf.id}`), 403);
      await refused(await call(member, 'PUT', `/api/shelves/${shelf.id}/members`, { members: [] }), 403);
    }
    await refused(await call(stranger, 'GET', `/api/shelves/${shelf.id}`), 404);

    // Unshared, it is gone for the member.
    expect((await call(owner, 'PUT', `/api/shelves/${shelf.id}/members`, { members: [{ user_id: adder.user.uid, access: 'add' }] })).statusCode).toBe(200);
    await refused(await call(seer, 'GET', `/api/shelves/${shelf.id}/books`), 404);
    expect((await list(seer)).some((one) => one.id === shelf.id)).toBe(false);
  });

  it('refuses sharing with no one of the household, the owner, a member twice, or a built-in shelf', async () => {
    const shelf = await made(owner, 'Sharing mistakes');
    const reading = await builtIn(owner, 'reading');
    for (const members of [
      [{ user_id: 'nobody', access: 'see' }],
      [{ user_id: owner.user.uid, access: 'see' }],
      [{ user_id: seer.user.uid, access: 'see' }, { user_id: seer.user.uid, access: 'add' }],
      [{ user_id: seer.user.uid, access: 'edit' }],
      [{ user_id: seer.user.uid }],
    ]) {
      await refused(await call(owner, 'PUT', `/api/shelves/${shelf.id}/members`, { members }), 400);
    }
    await refused(await call(owner, 'PUT', `/api/shelves/${shelf.id}/members`, {}), 400);
    expect(await refused(await call(owner, 'PUT', `/api/shelves/${reading.id}/members`, { members: [{ user_id: seer.user.uid, access: 'see' }] }), 400)).toMatch(
      /cannot be shared/,
    );
    expect(Shelf.parse((await call(owner, 'GET', `/api/shelves/${shelf.id}`)).json()).members).toEqual([]);
  });

  it('forgets a deleted account’s shelves and its memberships of others’', async () => {
    const leaving = await registerUser(t.app, { displayName: 'Leo Leaving' });
    const theirs = await made(leaving, 'Leaving soon');
    await call(leaving, 'PUT', `/api/shelves/${theirs.id}/members`, { members: [{ user_id: seer.user.uid, access: 'see' }] });
    const ours = await made(owner, 'Shared with Leo');
    await call(owner, 'PUT', `/api/shelves/${ours.id}/members`, { members: [{ user_id: leaving.user.uid, access: 'add' }] });
    expect((await list(seer)).some((one) => one.id === theirs.id)).toBe(true);
    const deleted = await call(leaving, 'DELETE', '/api/users/me', { email: leaving.user.email });
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);
    expect((await list(seer)).some((one) => one.id === theirs.id)).toBe(false);
    await refused(await call(seer, 'GET', `/api/shelves/${theirs.id}`), 404);
    expect(Shelf.parse((await call(owner, 'GET', `/api/shelves/${ours.id}`)).json()).members).toEqual([]);
  });

  describe('as OPDS feeds', () => {
    async function eReaderBasic(who: Person) {
      const response = await call(who, 'POST', '/api/users/me/app-passwords', { name: 'KOReader' });
      const { password } = NewAppPassword.parse(response.json());
      return { authorization: `Basic ${Buffer.from(`${who.user.email}:${password}`).toString('base64')}` };
    }
    async function read(headers: Record<string, string>, href: string, kind: 'navigation' | 'acquisition') {
      const url = new URL(href, 'http://localhost');
      const response = await t.app.inject({ url: `${url.pathname}${url.search}`, headers });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-type']).toBe(`${kind === 'navigation' ? NAVIGATION : ACQUISITION};charset=utf-8`);
      return checkedFeed(response.body, kind);
    }

    it('lists a person’s shelves and those shared with them from the root, each an acquisition feed of its books', async () => {
      const reader = await registerUser(t.app, { displayName: 'Rita Reader' });
      const basic = await eReaderBasic(reader);
      const reading = await builtIn(reader, 'reading');
      await call(reader, 'PUT', `/api/shelves/${reading.id}/books/${book['Les Misérables']}`);
      const family = await made(owner, 'Read aloud');
      await call(owner, 'PUT', `/api/shelves/${family.id}/books/${book['The Science of Discworld']}`);
      await call(owner, 'PUT', `/api/shelves/${family.id}/members`, { members: [{ user_id: reader.user.uid, access: 'see' }] });

      const root = await read(basic, '/opds', 'navigation');
      const shelves = await read(basic, hrefOf(entryTitled(root, 'Shelves')), 'navigation');
      expect(shelves.entries?.map((entry) => [entry.title?.value, entry.content?.value])).toEqual([
        ['Want to read', '0 books'],
        ['Reading', '1 book'],
        ['Read', '0 books'],
        ['Read aloud (Olive Owner)', '1 book'],
      ]);
      for (const entry of shelves.entries ?? []) expect(entry.links?.[0]?.type).toBe(ACQUISITION);

      const readingFeed = await read(basic, hrefOf(entryTitled(shelves, 'Reading')), 'acquisition');
      expect(readingFeed.title?.value).toBe('Reading');
      expect(readingFeed.opensearch?.totalResults).toBe(1);
      const miserables = entryTitled(readingFeed, 'Les Misérables');
      expect(miserables.authors?.map((author) => author.name)).toEqual(['Victor Hugo']);
      expect(miserables.links?.some((link) => link.rel === REL.acquisition)).toBe(true);
      expect(miserables.links?.find((link) => link.rel === REL.image)?.href).toMatch(new RegExp(`/api/books/${book['Les Misérables']}/cover\\?size=full$`));

      const shared = await read(basic, hrefOf(entryTitled(shelves, 'Read aloud (Olive Owner)')), 'acquisition');
      expect(shared.entries?.map((entry) => entry.title?.value)).toEqual(['The Science of Discworld']);

      // Every link of every feed answers, shelves included.
      const crawl = await crawlOpds(t.app, basic);
      expect(crawl.links.filter((link) => link.status !== 200)).toEqual([]);
      expect(crawl.feeds).toEqual(expect.arrayContaining(['/opds/shelves', `/opds/shelves/${reading.id}`, `/opds/shelves/${family.id}`]));
    });

    it('answers another person’s shelf with a 404, and gives the shared books key no shelves', async () => {
      const basic = await eReaderBasic(stranger);
      const privateShelf = await made(owner, 'Not for e-readers of others');
      for (const url of [`/opds/shelves/${privateShelf.id}`, '/opds/shelves/no-such-shelf']) {
        const response = await t.app.inject({ url, headers: basic });
        expect(response.statusCode, url).toBe(404);
        expect(ErrorReply.parse(response.json()).message).toBe('Shelf not found');
      }
      const key = { 'x-api-key': BOOKS_KEY };
      const root = await read(key, '/opds', 'navigation');
      expect(root.entries?.map((entry) => entry.title?.value)).not.toContain('Shelves');
      expect((await read(key, '/opds/shelves', 'navigation')).entries ?? []).toEqual([]);
      expect((await t.app.inject({ url: `/opds/shelves/${privateShelf.id}`, headers: key })).statusCode).toBe(404);
      expect((await t.app.inject({ url: `/opds/shelves/${privateShelf.id}?page=0`, headers: basic })).statusCode).toBe(400);
      expect((await t.app.inject({ url: `/opds/shelves/${privateShelf.id}` })).statusCode).toBe(401);
    });
  });
});
