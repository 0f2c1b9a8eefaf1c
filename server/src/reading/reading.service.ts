import type { Book } from '../../../contract/books.ts';
import type { ContinueReading, ReadingPosition, ReadingPositionBody } from '../../../contract/reading.ts';
import type { BooksService } from '../books/books.service.ts';
import type { Clock } from '../clock.ts';
import type { PositionsStore, StoredPosition } from './positions.store.ts';

/** A kept position as the API gives it. */
export const positionReply = (position: StoredPosition): ReadingPosition => ({
  bookId: position.bookId,
  percentage: position.percentage,
  locator: position.locator,
  device: position.device,
  updatedAt: new Date(position.updatedAt).toISOString(),
  source: position.koreaderProgress === null ? 'web' : 'koreader',
});

type Dependencies = {
  positions: PositionsStore;
  books: Pick<BooksService, 'get' | 'getMany'>;
  clock: Pick<Clock, 'now'>;
};

/** Each user's place in each book, saved by the web reader (and by KOReader, koreader.service.ts). */
export function createReadingService({ positions, books, clock }: Dependencies) {
  return {
    /** Null while the user has no position in the book; a book not in the catalogue is a 404. */
    async get(userId: string, bookId: string): Promise<ReadingPosition | null> {
      await books.get(bookId);
      const position = await positions.get(userId, bookId);
      return position ? positionReply(position) : null;
    },

    /** Keeps the position unless a newer one is kept; answers the one kept, so a reader behind learns where it is. */
    async put(userId: string, bookId: string, body: ReadingPositionBody): Promise<ReadingPosition> {
      await books.get(bookId);
      const now = clock.now();
      const at = body.updatedAt === undefined ? now : Math.min(Date.parse(body.updatedAt), now);
      await positions.put(userId, {
        bookId,
        percentage: body.percentage,
        locator: body.locator,
        device: body.device,
        deviceId: null,
        koreaderProgress: null,
        updatedAt: at,
      });
      return positionReply((await positions.get(userId, bookId))!);
    },

    /** The books with a position, the newest position first; a book gone from the catalogue is left out. */
    async continueReading(userId: string, limit: number): Promise<ContinueReading> {
      const recent = await positions.recent(userId, limit);
      const byId = new Map((await books.getMany(recent.map((position) => position.bookId))).map((book) => [book.id, book]));
      const found = recent.flatMap((position) => {
        const book = byId.get(position.bookId);
        return book ? [{ book, position }] : [];
      });
      const entries = found.map(({ book: { comment: _comment, ...book }, position }, index): { book: Book; position: ReadingPosition } => ({
        book: { ...book, index, progress: position.percentage },
        position: positionReply(position),
      }));
      return { entries };
    },

    /** How far the user has read each of these books that has a position. */
    percentages(userId: string, bookIds: readonly string[]): Promise<Map<string, number>> {
      return positions.percentages(userId, bookIds);
    },
  };
}
export type ReadingService = ReturnType<typeof createReadingService>;
