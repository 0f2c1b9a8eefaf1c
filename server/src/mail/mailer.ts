import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Transporter } from 'nodemailer';

/**
 * A file attached as it is on disk, read when the message is written so that it is never held
 * whole, or made in memory (an article's EPUB, tens of kilobytes).
 */
export type MailAttachment = { fileName: string; contentType: string } & ({ path: string } | { content: Uint8Array });

/**
 * A plain-text message, with files attached; `id` is its key, unique to it (a task notice's key:
 * `task.occurrence.noticeTime`), and names its outbox file.
 */
export type OutgoingMail = { id: string; recipients: string[]; subject: string; body: string; attachments?: MailAttachment[] };

export type Mailer = {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
};

/**
 * The Message-ID follows from the key, so a message sent again after a crash (SMTP's own
 * at-least-once) carries the same id and mail clients show it once.
 */
const messageId = (id: string) => `<${createHash('sha256').update(id).digest('hex').slice(0, 32)}@organiser.notice>`;

function message(mail: OutgoingMail, from: string) {
  const attachments = (mail.attachments ?? []).map((file) => ({
    filename: file.fileName,
    contentType: file.contentType,
    ...('path' in file ? { path: file.path } : { content: Buffer.from(file.content) }),
  }));
  return { from, to: mail.recipients, subject: mail.subject, text: mail.body, messageId: messageId(mail.id), attachments };
}

/**
 * A transport made with the first message: nodemailer is loaded then, so that a server that sends
 * no mail never holds it.
 */
function lazyTransport(options: Parameters<typeof import('nodemailer').createTransport>[0]) {
  let transport: Promise<Transporter> | undefined;
  return {
    get: () => (transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(options))),
    close: () => void transport?.then((made) => made.close()),
  };
}

/** Mail over SMTP (`SMTP_URL`) when it is set, else into the outbox folder. */
export function createMailer({ smtpUrl, mailFrom, outboxDir }: { smtpUrl: string | undefined; mailFrom: string; outboxDir: string }): Mailer {
  return smtpUrl ? smtpMailer(smtpUrl, mailFrom) : outboxMailer(outboxDir, mailFrom);
}

/** Mail over SMTP, through a small pool of connections. */
function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = lazyTransport({ url: smtpUrl, pool: true, maxConnections: 4 });
  return {
    async send(mail) {
      await (await transport.get()).sendMail(message(mail, from));
    },
    close: transport.close,
  };
}

/** Without SMTP: each message becomes `<outboxDir>/<key>.eml`, written whole or not at all. */
function outboxMailer(outboxDir: string, from: string): Mailer {
  // CRLF, as mail is (RFC 5322 §2.1) and as the message would go over SMTP: mail clients open it as it is.
  // Streamed to the file rather than built in memory: a book attached may be tens of MB.
  const transport = lazyTransport({ streamTransport: true, newline: 'windows' });
  return {
    async send(mail) {
      const info = await (await transport.get()).sendMail(message(mail, from));
      await fs.mkdir(outboxDir, { recursive: true });
      const file = path.join(outboxDir, `${mail.id}.eml`);
      // Written under another name and renamed: a crash never leaves half a message behind.
      try {
        await pipeline(info.message as Readable, createWriteStream(`${file}.tmp`));
      } catch (error) {
        // An attachment that could not be read: no half message is left to be mistaken for one.
        await fs.rm(`${file}.tmp`, { force: true });
        throw error;
      }
      await fs.rename(`${file}.tmp`, file);
    },
    close: transport.close,
  };
}
