import { randomUUID } from 'node:crypto';
import {
  BYTES_PER_MB,
  E_READER_KIND_NAMES,
  type EReader,
  formatsTakenBy,
  type SendBookBody,
  type SendBookReply,
  type SendOptions,
} from '../../../contract/e-readers.ts';
import { AppError, notFound } from '../errors.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { BooksService } from './books.service.ts';
import type { EReaderDevicesStore } from './e-reader-devices.store.ts';
import { mimeTypeOf } from './library/book-formats.ts';
import { asciiFileName, downloadName } from './library/download-name.ts';
import type { LibraryFiles } from './library/library.files.ts';

type Options = {
  devices: EReaderDevicesStore;
  books: Pick<BooksService, 'get'>;
  files: LibraryFiles;
  mailer: Mailer;
  /** What a message given to the mailer becomes: mailed (`SMTP_URL` set), or an outbox file. */
  delivery: SendBookReply['delivery'];
};

const megabytes = (bytes: number) => `${(bytes / BYTES_PER_MB).toFixed(1)} MB`;

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);

/**
 * Send to e-reader (docs/behaviour/books.md): a book's file mailed as an attachment to one of the
 * user's device addresses, through the server's one mailer. Everything is checked before the
 * mailer is called — the device is the user's, the device takes the format, the file is within its
 * limit — so a refusal sends nothing.
 */
export function createSendToDevice({ devices, books, files, mailer, delivery }: Options) {
  const limitOf = (device: EReader) => device.max_mb * BYTES_PER_MB;

  /** The file mailed to the device, once the device takes its format and it is within the device's limit. */
  async function mail(
    device: EReader,
    file: { title: string; name: string; format: string; size: number; attachment: { path: string } | { content: Uint8Array } },
  ): Promise<SendBookReply> {
    const { format, size } = file;
    const kind = E_READER_KIND_NAMES[device.kind];
    if (formatsTakenBy(device.kind, [format]).length === 0) {
      throw new AppError(400, `${kind} does not take ${format.toUpperCase()} files by e-mail: choose another format`);
    }
    if (size > limitOf(device)) {
      throw new AppError(422, `The ${format.toUpperCase()} file is ${megabytes(size)}, more than the ${device.max_mb} MB that ${device.name} takes: nothing was sent`);
    }
    try {
      await mailer.send({
        id: `send.${randomUUID()}`,
        recipients: [device.email],
        subject: file.title,
        body: `${file.name}, sent from Organiser.\n`,
        attachments: [{ fileName: asciiFileName(file.name), contentType: mimeTypeOf(format), ...file.attachment }],
      });
    } catch (error) {
      throw new AppError(502, `The mail server did not take the message to ${device.name}: ${reasonOf(error)}`);
    }
    return { device: device.name, email: device.email, format, size, delivery };
  }

  return {
    /** Each of the user's devices with the book's formats on disk that it takes, best first. */
    async options(userId: string, bookId: string): Promise<SendOptions> {
      const book = await books.get(bookId);
      const onDisk = await files.filesOf(book);
      const sizes = new Map(onDisk.map((file) => [file.format, file.size]));
      return (await devices.list(userId)).map((device) => ({
        device,
        formats: formatsTakenBy(device.kind, [...sizes.keys()]).map((format) => {
          const size = sizes.get(format)!;
          return { format, size, fits: size <= limitOf(device) };
        }),
      }));
    },

    async send(userId: string, bookId: string, { device_id, format }: SendBookBody): Promise<SendBookReply> {
      const device = await devices.get(userId, device_id);
      const book = await books.get(bookId);
      const file = await files.file(book, format);
      if (!file) throw notFound('File');
      const name = downloadName(book, format);
      return mail(device, { title: book.title || name, name, format, size: file.size, attachment: { path: file.path } });
    },

    /**
     * A file made for the user (a kept article's EPUB) mailed to one of their devices, as a book is:
     * checked against the device the same way, and refused the same way.
     */
    async sendFile(userId: string, deviceId: string, file: { title: string; name: string; format: string; content: Uint8Array }): Promise<SendBookReply> {
      const device = await devices.get(userId, deviceId);
      return mail(device, { title: file.title, name: file.name, format: file.format, size: file.content.length, attachment: { content: file.content } });
    },
  };
}
export type SendToDevice = ReturnType<typeof createSendToDevice>;
