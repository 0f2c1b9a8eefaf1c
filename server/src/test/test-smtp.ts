import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export type ReceivedMail = { messageId: string; from: string; to: string[]; subject: string; raw: string };
type Decision = 'accept' | 'reject' | 'hold' | 'wait';

const header = (raw: string, name: string) =>
  new RegExp(`^${name}:\\s*(.*(?:\\r?\\n[ \\t].*)*)`, 'im').exec(raw)?.[1]?.replace(/\r?\n[ \t]+/g, ' ').trim() ?? '';

/** A message as received, its quoted-printable soft line breaks and escapes decoded (ASCII text). */
export const quotedPrintable = (raw: string) =>
  raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/**
 * A real SMTP server on a free local port, for tests and the benchmark. `decide` picks, per
 * message, whether to accept it, refuse it with a temporary error, never answer (`hold`), or keep
 * it mid-transfer until `release()` accepts it (`wait`).
 */
export async function startTestSmtp() {
  const received: ReceivedMail[] = [];
  let decide: (mail: ReceivedMail) => Decision = () => 'accept';
  let waiters: Array<() => void> = [];
  const waiting: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    size: 1024 * 1024,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const mail = {
          messageId: header(raw, 'Message-ID'),
          from: header(raw, 'From'),
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          subject: header(raw, 'Subject'),
          raw,
        };
        const decision = decide(mail);
        if (decision === 'hold') return;
        if (decision === 'reject') {
          callback(Object.assign(new Error('Mailbox busy, try later'), { responseCode: 451 }));
          return;
        }
        const accept = () => {
          received.push(mail);
          callback();
          for (const wake of waiters) wake();
        };
        if (decision === 'wait') waiting.push(accept);
        else accept();
      });
    },
  });
  // A sender killed mid-session resets its connection: expected here, and no reason to stop.
  server.on('error', () => {});
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    setDecision(next: (mail: ReceivedMail) => Decision) {
      decide = next;
    },
    /** How many messages are kept mid-transfer by `wait`. */
    waitingCount: () => waiting.length,
    /** Accepts every message kept by `wait`. */
    release() {
      for (const accept of waiting.splice(0)) accept();
    },
    /** Resolves once `count` messages have been accepted; fails after `timeoutMs`. */
    async waitFor(count: number, timeoutMs = 15_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`waited for ${count} mails, got ${received.length}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(left, 200));
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
        waiters = [];
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type TestSmtp = Awaited<ReturnType<typeof startTestSmtp>>;
