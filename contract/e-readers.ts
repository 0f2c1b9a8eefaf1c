import { z } from 'zod';
import { Email } from './auth.ts';

/** What kind of device an address delivers to: it decides the formats offered and the default size limit. */
export const E_READER_KINDS = ['kindle', 'pocketbook', 'other'] as const;
export type EReaderKind = (typeof E_READER_KINDS)[number];

export const E_READER_KIND_NAMES: Readonly<Record<EReaderKind, string>> = {
  kindle: 'Kindle',
  pocketbook: 'PocketBook',
  other: 'Other e-mail address',
};

/**
 * The size limit a new address gets unless the user gives one, in MB of 1,000,000 bytes: Amazon
 * takes documents of up to 50 MB by e-mail; PocketBook's and other mail services' are lower and
 * vary, so theirs is a common mail server's (docs/decisions/0036-send-to-e-reader-by-mail.md).
 */
export const DEFAULT_SIZE_LIMIT_MB: Readonly<Record<EReaderKind, number>> = { kindle: 50, pocketbook: 20, other: 25 };
export const MAX_SIZE_LIMIT_MB = 200;
export const BYTES_PER_MB = 1_000_000;

/**
 * The formats each kind takes by mail, best first: EPUB wherever it is taken. Amazon's Send to
 * Kindle takes EPUB, PDF, Word, RTF, text, HTML and images, and no longer MOBI or AZW3; PocketBook's
 * Send-to-PocketBook takes what its readers open. `other` takes any format, EPUB first.
 */
const FORMATS_TAKEN: Readonly<Record<EReaderKind, readonly string[] | null>> = {
  kindle: ['epub', 'pdf', 'docx', 'doc', 'rtf', 'txt', 'htm', 'html'],
  pocketbook: ['epub', 'pdf', 'fb2', 'fbz', 'mobi', 'azw3', 'prc', 'djvu', 'djv', 'cbz', 'cbr', 'docx', 'doc', 'rtf', 'txt', 'htm', 'html', 'chm'],
  other: null,
};

/** Of a book's formats, those a device of this kind takes, in the order to offer them (the first is the default). */
export function formatsTakenBy(kind: EReaderKind, formats: readonly string[]): string[] {
  const taken = FORMATS_TAKEN[kind];
  if (taken === null) return [...formats].sort((a, b) => Number(b === 'epub') - Number(a === 'epub'));
  return taken.filter((format) => formats.includes(format));
}

/** `POST /api/users/me/e-readers`: a device's address, its name, and its size limit (the kind's default when left out). */
export const EReaderBody = z.strictObject({
  name: z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters'),
  email: Email,
  kind: z.enum(E_READER_KINDS, { error: 'must be kindle, pocketbook or other' }),
  max_mb: z
    .number({ error: 'must be a whole number of MB' })
    .int('must be a whole number of MB')
    .min(1, 'must be at least 1 MB')
    .max(MAX_SIZE_LIMIT_MB, `must be at most ${MAX_SIZE_LIMIT_MB} MB`)
    .optional(),
});
export type EReaderBody = z.infer<typeof EReaderBody>;

export const EReader = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  kind: z.enum(E_READER_KINDS),
  max_mb: z.number().int(),
  created_at: z.iso.datetime({ offset: true }),
});
export type EReader = z.infer<typeof EReader>;

export const EReaders = z.array(EReader);

export const EReaderParams = z.strictObject({ id: z.string().max(100) });

/** `GET /api/books/{id}/send`: each of the user's devices with the book's formats it takes, best first. */
export const SendOptions = z.array(
  z.object({
    device: EReader,
    formats: z.array(
      z.object({
        format: z.string(),
        size: z.number().int().nonnegative(),
        /** Whether the file is within the device's size limit. */
        fits: z.boolean(),
      }),
    ),
  }),
);
export type SendOptions = z.infer<typeof SendOptions>;

/** `POST /api/books/{id}/send`: which device, and which of the book's formats. */
export const SendBookBody = z.strictObject({
  device_id: z.string().min(1, 'is required').max(100, 'must be at most 100 characters'),
  format: z.string().trim().toLowerCase().min(1, 'is required').max(100, 'must be at most 100 characters'),
});
export type SendBookBody = z.infer<typeof SendBookBody>;

/** `POST /bookmarks/{id}/send`: a kept article, as an EPUB, to one of the user's e-readers. */
export const SendArticleBody = SendBookBody.pick({ device_id: true });
export type SendArticleBody = z.infer<typeof SendArticleBody>;

/** What became of a send: mailed (`sent`), or kept in the server's outbox, which has no mail server (`outbox`). */
export const SendBookReply = z.object({
  device: z.string(),
  email: z.string(),
  format: z.string(),
  size: z.number().int().nonnegative(),
  delivery: z.enum(['sent', 'outbox']),
});
export type SendBookReply = z.infer<typeof SendBookReply>;
