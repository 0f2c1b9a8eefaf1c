import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';

export type OutgoingNotice = { id: string; recipients: string[]; subject: string; body: string };

export type Mailer = {
  send(notice: OutgoingNotice): Promise<void>;
  close(): void;
};

/**
 * The Message-ID follows from the notice key, so a notice sent again after a crash (SMTP's own
 * at-least-once) carries the same id and mail clients show it once.
 */
const messageId = (id: string) => `<${createHash('sha256').update(id).digest('hex').slice(0, 32)}@organiser.notice>`;

function message(notice: OutgoingNotice, from: string) {
  return { from, to: notice.recipients, subject: notice.subject, text: notice.body, messageId: messageId(notice.id) };
}

/** Notices over SMTP (`SMTP_URL`), through a small pool of connections. */
export function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport({ url: smtpUrl, pool: true, maxConnections: 4 });
  return {
    async send(notice) {
      await transport.sendMail(message(notice, from));
    },
    close: () => transport.close(),
  };
}

/** Without SMTP: each notice becomes `<outboxDir>/<key>.eml`, written whole or not at all. */
export function outboxMailer(outboxDir: string, from: string): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(notice) {
      const info = await transport.sendMail(message(notice, from));
      await fs.mkdir(outboxDir, { recursive: true });
      const file = path.join(outboxDir, `${notice.id}.eml`);
      // Written under another name and renamed: a crash never leaves half a message behind.
      await fs.writeFile(`${file}.tmp`, info.message as Buffer);
      await fs.rename(`${file}.tmp`, file);
    },
    close: () => transport.close(),
  };
}
