import { z } from 'zod';
import { Book } from './books.ts';

/**
 * Where the reader is in a book (issue 38). `locator` is the web reader's own place and opaque to
 * the server, but for two forms it hands to KOReader in KOReader's terms: an EPUB CFI
 * (`epubcfi(/6/14!/4/2)`, given to KOReader as the start of that spine item) and a PDF page as its
 * decimal number from 1 (`"12"`, KOReader's own page form). Null when KOReader wrote the position
 * in a form the web reader does not read (an EPUB's XPointer): the percentage is the place then.
 */
export const ReadingPositionBody = z.strictObject({
  /** How far, 0 to 1. */
  percentage: z.number({ error: 'must be a number' }).min(0, 'must be 0 to 1').max(1, 'must be 0 to 1'),
  locator: z.string().min(1, 'must not be empty').max(4000, 'must be at most 4000 characters').nullable().default(null),
  /** What the position was saved on ("Firefox on a phone"), shown beside it. */
  device: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
  /**
   * When the reader was there; the newest position wins, so a late save from a tab left open
   * does not undo a newer one. A time ahead of the server's counts as the server's now. Now when absent.
   */
  updatedAt: z.iso.datetime({ offset: true, error: 'must be an ISO date-time with a zone' }).optional(),
});
export type ReadingPositionBody = z.infer<typeof ReadingPositionBody>;

export const ReadingPosition = z.object({
  bookId: z.string(),
  percentage: z.number().min(0).max(1),
  locator: z.string().nullable(),
  device: z.string(),
  updatedAt: z.iso.datetime({ offset: true }),
  /** Who saved it: the web reader, or KOReader through its progress sync. */
  source: z.enum(['web', 'koreader']),
});
export type ReadingPosition = z.infer<typeof ReadingPosition>;

/** `GET /api/books/{id}/position`: null while the user has no position in the book. */
export const ReadingPositionReply = ReadingPosition.nullable();

export const ContinueReadingQuery = z.strictObject({
  limit: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(100, 'must be at most 100')
    .default(20),
});

/** `GET /api/books/continue`: the books the user has a position in, the newest position first. */
export const ContinueReading = z.object({
  entries: z.array(z.object({ book: Book, position: ReadingPosition })),
});
export type ContinueReading = z.infer<typeof ContinueReading>;
