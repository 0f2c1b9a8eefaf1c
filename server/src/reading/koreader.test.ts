import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NewAppPassword } from '../../../contract/app-passwords.ts';
import { KoreaderError, KoreaderProgressReply } from '../../../contract/koreader.ts';
import { ContinueReading, ReadingPositionReply } from '../../../contract/reading.ts';
import { appWithFixtureLibrary } from '../test/fixture-library.ts';
import { bearer, registerUser, type TestApp, testDialects } from '../test/test-app.ts';

/**
 * KOReader's progress sync, tested from the protocol's own definition (koreader-sync-server's
 * routes, controller, errors and spec; its framework's Accept and body rules; KOReader's kosync
 * plugin): what a KOReader device sends and what it reads back.
 */
const ACCEPT = { accept: 'application/vnd.koreader.v1+json' };
const md5 = (text: string) => createHash('md5').update(text).digest('hex');

/**
 * The document ids KOReader gives the fixture library's files, worked out apart from the server
 * with coreutils, as KOReader's `util.partialMD5` defines them (1 KiB at 0, then at 1 KiB × 4^i
 * for i = 0…10, stopping at the end of the file), e.g. for the EPUB:
 * `for o in 0 1024 4096 16384 65536 262144 …; do tail -c +$((o+1)) FILE | head -c 1024; done | md5sum`
 * (the 137,691-byte file ends before 262144). The name ids are `printf %s NAME | md5sum`.
 */
const MISERABLES_EPUB = '8afabe77bcbdefb211201672557a68a2';
const MISERABLES_EPUB_NAME = '825bcb0bcda0373b9b67b87707a1c4d8';
const DISCWORLD_PDF = '31a33014b7be19b6f0964b71e571ebd4';
const MISERABLES = '3';
const DISCWORLD = '1';

describe.each(testDialects)("KOReader's progress sync on %s", (dialect) => {
  let t: TestApp;
  let reader: Awaited<ReturnType<typeof account>>;
  let other: Awaited<ReturnType<typeof account>>;

  const signed = (who: { email: string; appPassword: string }) => ({ ...ACCEPT, 'x-auth-user': who.email, 'x-auth-key': md5(who.appPassword) });
  const put = (headers: Record<string, string>, payload: unknown) =>
    t.app.inject({ method: 'PUT', url: '/kosync/syncs/progress', headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(payload) });
  const get = (headers: Record<string, string>, document: string) => t.app.inject({ url: `/kosync/syncs/progress/${document}`, headers });
  const progressOf = async (headers: Record<string, string>, document: string) => {
    const response = await get(headers, document);
    expect(response.statusCode, response.body).toBe(200);
    return KoreaderProgressReply.parse(response.json());
  };
  const errorOf = (response: { json(): unknown }) => KoreaderError.strict().parse(response.json());
  const webPosition = async (idToken: string, bookId: string) =>
    ReadingPositionReply.parse((await t.app.inject({ url: `/api/books/${bookId}/position`, headers: bearer(idToken) })).json());

  async function account() {
    const user = await registerUser(t.app);
    const made = await t.app.inject({ method: 'POST', url: '/api/users/me/app-passwords', headers: bearer(user.idToken), payload: { name: 'Kobo' } });
    const { id, password } = NewAppPassword.parse(made.json());
    return { idToken: user.idToken, email: user.user.email, password: user.password, appPassword: password, appPasswordId: id };
  }

  beforeAll(async () => {
    t = await appWithFixtureLibrary(dialect, { ALLOW_SIGNUP: 'true' });
    reader = await account();
    other = await account();
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers its health check', async () => {
    const response = await t.app.inject({ url: '/kosync/healthcheck', headers: ACCEPT });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ state: 'OK' });
  });

  it("refuses a request without the protocol's Accept header, as its framework does (412)", async () => {
    const cases: [Record<string, string>, number, string][] = [
      [{}, 100, 'Accept header not set.'],
      [{ accept: 'application/json' }, 101, 'Invalid Accept header format.'],
      [{ accept: 'application/vnd.koreader.v2+json' }, 102, 'Unsupported version specified in the Accept header.'],
    ];
    for (const [accept, code, message] of cases) {
      const { accept: _kept, ...unaccepted } = signed(reader);
      const response = await t.app.inject({ url: '/kosync/users/auth', headers: { ...unaccepted, ...accept } });
      expect(response.statusCode).toBe(412);
      expect(errorOf(response)).toEqual({ code, message });
    }
  });

  it('refuses registration: the accounts are made in Organiser (402, code 2005)', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/kosync/users/create',
      headers: ACCEPT,
      payload: { username: 'new-user', password: md5('passwd123') },
    });
    expect(response.statusCode).toBe(402);
    expect(errorOf(response)).toEqual({ code: 2005, message: 'User registration is disabled.' });
  });

  it('authorises the e-mail with the MD5 of an app password, however its groups and case were typed', async () => {
    const typings = [reader.appPassword, reader.appPassword.replaceAll('-', ''), reader.appPassword.toUpperCase()];
    for (const typed of typings) {
      const response = await t.app.inject({ url: '/kosync/users/auth', headers: { ...ACCEPT, 'x-auth-user': reader.email.toUpperCase(), 'x-auth-key': md5(typed) } });
      expect(response.statusCode, typed).toBe(200);
      expect(response.json()).toEqual({ authorized: 'OK' });
    }
  });

  it('refuses an empty or wrong key, the account password, another user’s app password, an unknown user (401, code 2001)', async () => {
    const refused: Record<string, string>[] = [
      { 'x-auth-user': reader.email, 'x-auth-key': '' },
      { 'x-auth-user': reader.email },
      { 'x-auth-user': reader.email, 'x-auth-key': md5('wrong_password') },
      { 'x-auth-user': reader.email, 'x-auth-key': md5(reader.password) },
      { 'x-auth-user': reader.email, 'x-auth-key': md5(other.appPassword) },
      { 'x-auth-user': 'nobody@example.org', 'x-auth-key': md5(reader.appPassword) },
      { 'x-auth-user': `${reader.email}:x`, 'x-auth-key': md5(reader.appPassword) },
      {},
    ];
    for (const headers of refused) {
      for (const response of [
        await t.app.inject({ url: '/kosync/users/auth', headers: { ...ACCEPT, ...headers }, remoteAddress: '10.9.0.1' }),
        await get({ ...ACCEPT, ...headers }, 'somedocument'),
        await put({ ...ACCEPT, ...headers }, { document: 'somedocument', progress: '56', percentage: 0.32, device: 'my kpw', device_id: 'A' }),
      ]) {
        expect(response.statusCode, JSON.stringify(headers)).toBe(401);
        expect(errorOf(response)).toEqual({ code: 2001, message: 'Unauthorized' });
      }
    }
    expect(await progressOf(signed(reader), 'somedocument')).toEqual({});
  });

  it('keeps the progress of a document, answers it whole, and the latest save wins', async () => {
    const saved = await put(signed(reader), { document: '89isjkdaj9j', progress: '56', percentage: 0.32, device: 'my kpw', device_id: 'KPW1' });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ document: '89isjkdaj9j', timestamp: Math.floor(t.clock.now() / 1000) });
    expect(await progressOf(signed(reader), '89isjkdaj9j')).toEqual({
      document: '89isjkdaj9j',
      percentage: 0.32,
      progress: '56',
      device: 'my kpw',
      device_id: 'KPW1',
      timestamp: Math.floor(t.clock.now() / 1000),
    });
    t.clock.advance(5000);
    await put(signed(reader), { document: '89isjkdaj9j', progress: '36', percentage: 0.22, device: 'my pb', device_id: 'PB1' });
    expect(await progressOf(signed(reader), '89isjkdaj9j')).toMatchObject({ percentage: 0.22, progress: '36', device: 'my pb', device_id: 'PB1' });
  });

  it('answers {} for a document without progress', async () => {
    expect(await progressOf(signed(reader), '89isjkdaj9jnon_existent')).toEqual({});
  });

  it("never shows one user's progress to another", async () => {
    expect(await progressOf(signed(other), '89isjkdaj9j')).toEqual({});
  });

  it('makes a save of an EPUB of the library, by its content, the book’s position on the web', async () => {
    t.clock.advance(5000);
    const xpointer = '/body/DocFragment[20]/body/p[22]/text().0';
    expect((await put(signed(reader), { document: MISERABLES_EPUB, progress: xpointer, percentage: 0.31879, device: 'Kobo', device_id: 'K1' })).statusCode).toBe(200);
    expect(await webPosition(reader.idToken, MISERABLES)).toEqual({
      bookId: MISERABLES,
      percentage: 0.31879,
      locator: null,
      device: 'Kobo',
      updatedAt: new Date(t.clock.now()).toISOString(),
      source: 'koreader',
    });
    expect(await webPosition(other.idToken, MISERABLES)).toBeNull();
    const reading = ContinueReading.parse((await t.app.inject({ url: '/api/books/continue', headers: bearer(reader.idToken) })).json());
    expect(reading.entries[0]?.book.id).toBe(MISERABLES);
    // Another kind of device, with KOReader's other id (the file's name), is given the same place.
    expect(await progressOf(signed(reader), MISERABLES_EPUB_NAME)).toMatchObject({ percentage: 0.31879, progress: xpointer, device: 'Kobo' });
  });

  it("matches a file by the names a device may keep it under: Calibre's, and the download's", async () => {
    t.clock.advance(5000);
    for (const name of ['Les Misérables - Victor Hugo.epub', 'Les Miserables - Victor Hugo.epub']) {
      t.clock.advance(1000);
      await put(signed(reader), { document: md5(name), progress: '/body/DocFragment[3]/body', percentage: 0.05, device: name, device_id: 'N' });
      expect((await webPosition(reader.idToken, MISERABLES))?.device).toBe(name);
    }
    expect(MISERABLES_EPUB_NAME).toBe(md5('Les Miserables - Victor Hugo.epub'));
  });

  it("gives KOReader the web reader's newer place in its own terms: a PDF's page, an EPUB's chapter", async () => {
    t.clock.advance(5000);
    await t.app.inject({ method: 'PUT', url: `/api/books/${DISCWORLD}/position`, headers: bearer(reader.idToken), payload: { percentage: 0.4, locator: '12', device: 'Chromium' } });
    expect(await progressOf(signed(reader), DISCWORLD_PDF)).toEqual({
      document: DISCWORLD_PDF,
      percentage: 0.4,
      progress: '12',
      device: 'Chromium',
      timestamp: Math.floor(t.clock.now() / 1000),
    });
    t.clock.advance(5000);
    await t.app.inject({
      method: 'PUT',
      url: `/api/books/${MISERABLES}/position`,
      headers: bearer(reader.idToken),
      payload: { percentage: 0.5, locator: 'epubcfi(/6/14!/4/2/10/1:0)', device: 'Chromium' },
    });
    expect(await progressOf(signed(reader), MISERABLES_EPUB)).toMatchObject({ percentage: 0.5, progress: '/body/DocFragment[7]/body', device: 'Chromium' });
    // A page of the web's PDF reader is no place in the EPUB: KOReader keeps its own document's.
    t.clock.advance(5000);
    await t.app.inject({ method: 'PUT', url: `/api/books/${MISERABLES}/position`, headers: bearer(reader.idToken), payload: { percentage: 0.6, locator: '99', device: 'Chromium' } });
    expect(await progressOf(signed(reader), MISERABLES_EPUB)).toMatchObject({ percentage: 0.31879, device: 'Kobo' });
    // A KOReader page saved for the PDF is the web reader's page too.
    t.clock.advance(5000);
    await put(signed(reader), { document: DISCWORLD_PDF, progress: '56', percentage: 0.55, device: 'Kindle', device_id: 'KI' });
    expect(await webPosition(reader.idToken, DISCWORLD)).toMatchObject({ percentage: 0.55, locator: '56', source: 'koreader' });
  });

  it('refuses a missing or bad field with the protocol’s 403, an unreadable body with 400, and changes nothing', async () => {
    const good = { document: MISERABLES_EPUB, progress: '/body/DocFragment[9]', percentage: 0.7, device: 'Kobo', device_id: 'K1' };
    const before = await progressOf(signed(reader), MISERABLES_EPUB);
    const positionBefore = await webPosition(reader.idToken, MISERABLES);
    const documentMissing = { code: 2004, message: "Field 'document' not provided." };
    const invalid = { code: 2003, message: 'Invalid request' };
    const cases: [unknown, number, object][] = [
      [{ ...good, document: undefined }, 403, documentMissing],
      [{ ...good, document: '' }, 403, documentMissing],
      [{ ...good, document: 'a:b' }, 403, documentMissing],
      [{ ...good, percentage: undefined }, 403, invalid],
      [{ ...good, percentage: 'much' }, 403, invalid],
      [{ ...good, percentage: 1.5 }, 403, invalid],
      [{ ...good, progress: undefined }, 403, invalid],
      [{ ...good, device: undefined }, 403, invalid],
      [[good], 400, { code: 104, message: 'Body should be a JSON hash.' }],
    ];
    for (const [payload, status, error] of cases) {
      const response = await put(signed(reader), payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(status);
      expect(errorOf(response)).toEqual(error);
    }
    const unreadable = await t.app.inject({ method: 'PUT', url: '/kosync/syncs/progress', headers: { ...signed(reader), 'content-type': 'application/json' }, payload: '{"document":' });
    expect(unreadable.statusCode).toBe(400);
    expect(errorOf(unreadable)).toEqual({ code: 103, message: 'Could not parse JSON in body.' });
    const document = await get(signed(reader), 'a:b');
    expect(document.statusCode).toBe(403);
    expect(errorOf(document)).toEqual(documentMissing);
    expect(await progressOf(signed(reader), MISERABLES_EPUB)).toEqual(before);
    expect(await webPosition(reader.idToken, MISERABLES)).toEqual(positionBefore);
  });

  it('takes a body whatever its Content-Type, as the protocol’s framework does, and ignores metadata', async () => {
    const response = await t.app.inject({
      method: 'PUT',
      url: '/kosync/syncs/progress',
      headers: { ...signed(reader), 'content-type': 'text/plain' },
      payload: JSON.stringify({ document: 'plain', progress: '3', percentage: 0.1, device: 'Kobo', metadata: { title: 'T' } }),
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(await progressOf(signed(reader), 'plain')).toMatchObject({ progress: '3', percentage: 0.1 });
  });

  it('refuses an app password once revoked, and one made before KOReader sync (no key kept)', async () => {
    const revoked = await account();
    expect((await t.app.inject({ url: '/kosync/users/auth', headers: signed(revoked) })).statusCode).toBe(200);
    await t.app.inject({ method: 'DELETE', url: `/api/users/me/app-passwords/${revoked.appPasswordId}`, headers: bearer(revoked.idToken) });
    expect((await t.app.inject({ url: '/kosync/users/auth', headers: signed(revoked) })).statusCode).toBe(401);
    const older = await account();
    expect((await t.app.inject({ url: '/kosync/users/auth', headers: signed(older) })).statusCode).toBe(200);
    await t.storage.db.updateTable('app_passwords').set({ sync_keys: null }).where('id', '=', older.appPasswordId).execute();
    const response = await t.app.inject({ url: '/kosync/users/auth', headers: signed(older) });
    expect(response.statusCode).toBe(401);
    expect(errorOf(response)).toEqual({ code: 2001, message: 'Unauthorized' });
    // Still good for OPDS, with HTTP Basic.
    const basic = `Basic ${Buffer.from(`${older.email}:${older.appPassword}`).toString('base64')}`;
    expect((await t.app.inject({ url: '/opds', headers: { authorization: basic } })).statusCode).toBe(200);
  });
});
