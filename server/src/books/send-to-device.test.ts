import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import PostalMime from 'postal-mime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EReader, EReaders, SendBookReply, SendOptions } from '../../../contract/e-readers.ts';
import { HealthReply } from '../../../contract/health.ts';
import { bearer, buildTestApp, createTestDatabase, registerUser, type TestApp, testAppOn, testDialects } from '../test/test-app.ts';
import { startTestSmtp, type TestSmtp } from '../test/test-smtp.ts';

const FIXTURE_LIBRARY = path.join(import.meta.dirname, 'fixtures/library');
const DISCWORLD_EPUB = 'Terry Pratchett/The Science of Discworld (1)/The Science of Discworld - Terry Pratchett.epub';
const DISCWORLD_PDF = 'Terry Pratchett/The Science of Discworld (1)/The Science of Discworld - Terry Pratchett.pdf';
const MISERABLES_EPUB = 'Victor Hugo/Les Miserables (3)/Les Miserables - Victor Hugo.epub';
/** The PDF is padded past 1 MB, the smallest limit a device may have, so that a 1 MB device refuses it. */
const PADDED_PDF_BYTES = 1_200_000;

async function libraryLoaded(t: TestApp) {
  // The first load's transaction holds SQLite's one writer: a sign-up waits for its end.
  for (const until = Date.now() + 30_000; ; ) {
    const health = HealthReply.parse((await t.app.inject({ url: '/api/health' })).json());
    if (health.library?.last_load?.status === 'ok') return;
    if (Date.now() > until) throw new Error(`the library never loaded: ${JSON.stringify(health.library)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function copyLibrary(work: string): string {
  const library = path.join(work, 'Calibre Library');
  fs.cpSync(FIXTURE_LIBRARY, library, { recursive: true });
  const pdf = path.join(library, DISCWORLD_PDF);
  fs.appendFileSync(pdf, Buffer.alloc(PADDED_PDF_BYTES - fs.statSync(pdf).size, 0x20));
  return library;
}

const attachmentsOf = async (raw: string) => (await PostalMime.parse(raw)).attachments;

describe.each(testDialects)('send to e-reader on %s', (dialect) => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'organiser-send-'));
  const library = copyLibrary(work);
  let smtp: TestSmtp;
  let t: TestApp;
  let owner: string;
  let other: string;

  const call = (token: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
  const addDevice = async (token: string, body: object) => {
    // Devices are listed in the order they were added, by the clock, which moves only when told.
    t.clock.advance(1000);
    const response = await call(token, 'POST', '/api/users/me/e-readers', body);
    expect(response.statusCode, response.body).toBe(200);
    return EReader.parse(response.json());
  };
  const devices = async (token: string) => EReaders.parse((await call(token, 'GET', '/api/users/me/e-readers')).json());
  const fileBytes = (relative: string) => fs.readFileSync(path.join(library, relative));

  beforeAll(async () => {
    smtp = await startTestSmtp();
    t = await testAppOn(dialect, { env: { ALLOW_SIGNUP: 'true', CALIBRE_LIBRARY: library, SMTP_URL: smtp.url, MAIL_FROM: 'organiser@example.org' } });
    await t.app.ready();
    await libraryLoaded(t);
    owner = (await registerUser(t.app)).idToken;
    other = (await registerUser(t.app)).idToken;
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('keeps a device with the kind’s size limit when none is given, and the one given otherwise', async () => {
    const kindle = await addDevice(owner, { name: 'Kindle Paperwhite', email: ' Reader_1@Kindle.com ', kind: 'kindle' });
    expect(kindle).toMatchObject({ name: 'Kindle Paperwhite', email: 'reader_1@kindle.com', kind: 'kindle', max_mb: 50 });
    const pocketbook = await addDevice(owner, { name: 'PocketBook', email: 'me@pbsync.com', kind: 'pocketbook', max_mb: 30 });
    expect(pocketbook.max_mb).toBe(30);
    expect((await devices(owner)).map((device) => device.id)).toEqual([kindle.id, pocketbook.id]);
    expect(await devices(other)).toEqual([]);
  });

  it('refuses a bad device with a 400 and keeps nothing of it', async () => {
    const before = await devices(owner);
    const bad = [
      { name: 'Kindle', email: 'not an address', kind: 'kindle' },
      { name: 'Kindle', email: 'a@b', kind: 'kindle' },
      { name: 'Kindle', email: '', kind: 'kindle' },
      { name: ' ', email: 'me@kindle.com', kind: 'kindle' },
      { name: 'Kindle', email: 'me@kindle.com', kind: 'nook' },
      { name: 'Kindle', email: 'me@kindle.com', kind: 'kindle', max_mb: 0 },
      { name: 'Kindle', email: 'me@kindle.com', kind: 'kindle', max_mb: 2.5 },
      { name: 'Kindle', email: 'me@kindle.com', kind: 'kindle', max_mb: 201 },
      { name: 'Kindle', email: 'me@kindle.com', kind: 'kindle', extra: true },
    ];
    for (const body of bad) {
      const response = await call(owner, 'POST', '/api/users/me/e-readers', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(response.json()).sort()).toEqual(['error', 'message', 'statusCode']);
    }
    expect(await devices(owner)).toEqual(before);
  });

  it('mails the exact bytes of the file as an attachment typed and named by the book', async () => {
    const kindle = await addDevice(owner, { name: 'Kindle', email: 'bytes@kindle.com', kind: 'kindle' });
    const before = smtp.received.length;
    const response = await call(owner, 'POST', '/api/books/1/send', { device_id: kindle.id, format: 'epub' });
    expect(response.statusCode, response.body).toBe(200);
    expect(SendBookReply.parse(response.json())).toEqual({
      device: 'Kindle',
      email: 'bytes@kindle.com',
      format: 'epub',
      size: fileBytes(DISCWORLD_EPUB).length,
      delivery: 'sent',
    });
    await smtp.waitFor(before + 1);
    const mail = smtp.received[before]!;
    expect(mail.to).toEqual(['bytes@kindle.com']);
    expect(mail.from).toBe('organiser@example.org');
    const [attachment, ...more] = await attachmentsOf(mail.raw);
    expect(more).toEqual([]);
    expect(attachment!.filename).toBe('The Science of Discworld - Terry Pratchett & Ian Stewart & Jack Cohen.epub');
    expect(attachment!.mimeType).toBe('application/epub+zip');
    expect(Buffer.from(attachment!.content as ArrayBuffer).equals(fileBytes(DISCWORLD_EPUB))).toBe(true);
  });

  it('names the attachment in ASCII, as e-readers keep file names', async () => {
    const reader = await addDevice(owner, { name: 'Any', email: 'names@example.org', kind: 'other' });
    const before = smtp.received.length;
    const response = await call(owner, 'POST', '/api/books/3/send', { device_id: reader.id, format: 'EPUB' });
    expect(response.statusCode, response.body).toBe(200);
    await smtp.waitFor(before + 1);
    const [attachment] = await attachmentsOf(smtp.received[before]!.raw);
    expect(attachment!.filename).toMatch(/^Les Miserables - Victor Hugo\.epub$/);
    expect(Buffer.from(attachment!.content as ArrayBuffer).equals(fileBytes(MISERABLES_EPUB))).toBe(true);
  });

  it('offers each device the book’s formats it takes, EPUB first, with whether each fits', async () => {
    const small = await addDevice(other, { name: 'Small Kindle', email: 'small@kindle.com', kind: 'kindle', max_mb: 1 });
    const any = await addDevice(other, { name: 'Laptop', email: 'laptop@example.org', kind: 'other' });
    const discworld = SendOptions.parse((await call(other, 'GET', '/api/books/1/send')).json());
    expect(discworld.map((option) => option.device.id)).toEqual([small.id, any.id]);
    expect(discworld[0]!.formats).toEqual([
      { format: 'epub', size: fileBytes(DISCWORLD_EPUB).length, fits: true },
      { format: 'pdf', size: PADDED_PDF_BYTES, fits: false },
    ]);
    expect(discworld[1]!.formats.map((format) => [format.format, format.fits])).toEqual([
      ['epub', true],
      ['pdf', true],
    ]);
    // The Globe is on disk as AZW3 (and MOBI), which Kindle no longer takes by mail.
    const globe = SendOptions.parse((await call(other, 'GET', '/api/books/2/send')).json());
    expect(globe.map((option) => option.formats.map((format) => format.format))).toEqual([[], ['azw3', 'mobi']]);
  });

  it('refuses a file over the device’s limit before sending anything', async () => {
    const small = await addDevice(owner, { name: 'Old Kindle', email: 'old@kindle.com', kind: 'kindle', max_mb: 1 });
    const before = smtp.received.length;
    const response = await call(owner, 'POST', '/api/books/1/send', { device_id: small.id, format: 'pdf' });
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toBe('The PDF file is 1.2 MB, more than the 1 MB that Old Kindle takes: nothing was sent');
    const kindleAzw3 = await call(owner, 'POST', '/api/books/2/send', { device_id: small.id, format: 'azw3' });
    expect(kindleAzw3.statusCode).toBe(400);
    expect(kindleAzw3.json().message).toBe('Kindle does not take AZW3 files by e-mail: choose another format');
    // Let a mail that should not have gone have the time to arrive.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.received.length).toBe(before);
  });

  it('answers 404 for another user’s device, a book or a format that does not exist, and sends nothing', async () => {
    const mine = await addDevice(owner, { name: 'Mine', email: 'mine@kindle.com', kind: 'kindle' });
    const theirs = (await devices(other))[0]!;
    const before = smtp.received.length;
    const cases: Array<[string, object, string]> = [
      ['/api/books/1/send', { device_id: theirs.id, format: 'epub' }, 'E-reader not found'],
      ['/api/books/1/send', { device_id: 'no-such-device', format: 'epub' }, 'E-reader not found'],
      ['/api/books/999/send', { device_id: mine.id, format: 'epub' }, 'Book not found'],
      ['/api/books/1/send', { device_id: mine.id, format: 'docx' }, 'File not found'],
    ];
    for (const [url, body, message] of cases) {
      const response = await call(owner, 'POST', url, body);
      expect(response.statusCode, url).toBe(404);
      expect(response.json().message).toBe(message);
    }
    expect((await call(owner, 'GET', '/api/books/999/send')).statusCode).toBe(404);
    expect((await call(owner, 'DELETE', `/api/users/me/e-readers/${theirs.id}`)).statusCode).toBe(404);
    expect((await devices(other)).map((device) => device.id)).toContain(theirs.id);
    expect((await call(owner, 'POST', '/api/books/1/send', { format: 'epub' })).statusCode).toBe(400);
    expect(smtp.received.length).toBe(before);
  });

  it('removes a device, after which it is a 404', async () => {
    const gone = await addDevice(owner, { name: 'Gone', email: 'gone@kindle.com', kind: 'kindle' });
    expect((await call(owner, 'DELETE', `/api/users/me/e-readers/${gone.id}`)).statusCode).toBe(204);
    expect((await devices(owner)).map((device) => device.id)).not.toContain(gone.id);
    expect((await call(owner, 'POST', '/api/books/1/send', { device_id: gone.id, format: 'epub' })).statusCode).toBe(404);
  });

  it('deletes the devices with the account', async () => {
    const leaving = await registerUser(t.app);
    await addDevice(leaving.idToken, { name: 'Kindle', email: 'leaving@kindle.com', kind: 'kindle' });
    const deleted = await call(leaving.idToken, 'DELETE', '/api/users/me', { email: leaving.user.email });
    expect(deleted.statusCode, deleted.body).toBe(204);
    const left = await t.storage.db.selectFrom('e_reader_devices').select('id').where('email', '=', 'leaving@kindle.com').execute();
    expect(left).toEqual([]);
  });

  it('tells of a mail server that refuses the message with a 502', async () => {
    const kindle = await addDevice(owner, { name: 'Busy', email: 'busy@kindle.com', kind: 'kindle' });
    smtp.setDecision(() => 'reject');
    try {
      const response = await call(owner, 'POST', '/api/books/1/send', { device_id: kindle.id, format: 'epub' });
      expect(response.statusCode).toBe(502);
      expect(response.json().message).toMatch(/^The mail server did not take the message to Busy: .*451/);
    } finally {
      smtp.setDecision(() => 'accept');
    }
  });
});

describe('send to e-reader without SMTP_URL', () => {
  it('writes the message, file attached, to the outbox as the notices are', async () => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'organiser-send-outbox-'));
    const library = copyLibrary(work);
    const database = await createTestDatabase('sqlite');
    const t = await buildTestApp(database, { env: { CALIBRE_LIBRARY: library } });
    try {
      await t.app.ready();
      await libraryLoaded(t);
      const { idToken } = await registerUser(t.app);
      const added = await t.app.inject({
        method: 'POST',
        url: '/api/users/me/e-readers',
        headers: bearer(idToken),
        payload: { name: 'PocketBook', email: 'me@pbsync.com', kind: 'pocketbook' },
      });
      const device = EReader.parse(added.json());
      expect(device.max_mb).toBe(20);
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/books/1/send',
        headers: bearer(idToken),
        payload: { device_id: device.id, format: 'epub' },
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(SendBookReply.parse(response.json()).delivery).toBe('outbox');
      const outbox = path.join(database.dataDir, 'outbox');
      const files = fs.readdirSync(outbox);
      expect(files).toEqual([expect.stringMatching(/^send\.[0-9a-f-]{36}\.eml$/)]);
      const raw = fs.readFileSync(path.join(outbox, files[0]!), 'utf8');
      expect(raw).toMatch(/^To: me@pbsync\.com\r$/m);
      const [attachment] = await attachmentsOf(raw);
      expect(Buffer.from(attachment!.content as ArrayBuffer).equals(fs.readFileSync(path.join(library, DISCWORLD_EPUB)))).toBe(true);
    } finally {
      await t.close();
      await database.drop();
      fs.rmSync(work, { recursive: true, force: true });
    }
  });
});
