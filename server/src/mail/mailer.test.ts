import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMailer } from './mailer.ts';

describe('the outbox mailer', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'organiser-mailer-'));
  const outboxDir = path.join(work, 'outbox');
  const mailer = createMailer({ smtpUrl: undefined, mailFrom: 'organiser@example.org', outboxDir });
  afterAll(() => {
    mailer.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('leaves nothing behind when an attachment cannot be read', async () => {
    const mail = {
      id: 'send.vanished',
      recipients: ['me@kindle.com'],
      subject: 'Gone',
      body: 'A file removed after it was checked.\n',
      attachments: [{ fileName: 'Gone.epub', path: path.join(work, 'no-such-file.epub'), contentType: 'application/epub+zip' }],
    };
    await expect(mailer.send(mail)).rejects.toThrow(/ENOENT/);
    expect(fs.readdirSync(outboxDir)).toEqual([]);
  });

  it('writes a message with its attachment whole', async () => {
    const book = path.join(work, 'book.epub');
    fs.writeFileSync(book, Buffer.from([0, 1, 2, 255, 254, 253]));
    await mailer.send({
      id: 'send.whole',
      recipients: ['me@kindle.com'],
      subject: 'Whole',
      body: 'A file.\n',
      attachments: [{ fileName: 'book.epub', path: book, contentType: 'application/epub+zip' }],
    });
    expect(fs.readdirSync(outboxDir)).toEqual(['send.whole.eml']);
    const raw = fs.readFileSync(path.join(outboxDir, 'send.whole.eml'), 'utf8');
    expect(raw).toContain('Content-Type: application/epub+zip; name=book.epub');
    expect(raw).toContain(Buffer.from([0, 1, 2, 255, 254, 253]).toString('base64'));
  });
});
