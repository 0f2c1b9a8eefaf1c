import type { Kysely } from 'kysely';
import type { Database, ReadingPositionsTable } from '../storage/schema.ts';

/** A user's place in a book as kept: the web reader's locator, or KOReader's progress, or both null. */
export type StoredPosition = {
  bookId: string;
  percentage: number;
  locator: string | null;
  device: string;
  deviceId: string | null;
  koreaderProgress: string | null;
  updatedAt: number;
};

const COLUMNS = ['book_id', 'percentage', 'locator', 'device', 'device_id', 'koreader_progress', 'updated_at'] as const;

const fromRow = (row: Omit<ReadingPositionsTable, 'user_id'>): StoredPosition => ({
  bookId: row.book_id,
  percentage: Number(row.percentage),
  locator: row.locator,
  device: row.device,
  deviceId: row.device_id,
  koreaderProgress: row.koreader_progress,
  updatedAt: Number(row.updated_at),
});

/** One position per user and book; every function takes the owner, and the owner is in every query. */
export function createPositionsStore(db: Kysely<Database>) {
  return {
    async get(userId: string, bookId: string): Promise<StoredPosition | null> {
      const row = await db
        .selectFrom('reading_positions')
        .select(COLUMNS)
        .where('user_id', '=', userId)
        .where('book_id', '=', bookId)
        .executeTakeFirst();
      return row ? fromRow(row) : null;
    },

    /**
     * Keeps `position` unless the one kept is newer (a late save from a tab left open). One
     * statement: two saves at once cannot both win.
     */
    async put(userId: string, position: StoredPosition): Promise<void> {
      const values = {
        percentage: position.percentage,
        locator: position.locator,
        device: position.device,
        device_id: position.deviceId,
        koreader_progress: position.koreaderProgress,
        updated_at: position.updatedAt,
      };
      await db
        .insertInto('reading_positions')
        .values({ user_id: userId, book_id: position.bookId, ...values })
        .onConflict((oc) =>
          oc
            .columns(['user_id', 'book_id'])
            .doUpdateSet(values)
            .where('reading_positions.updated_at', '<=', position.updatedAt),
        )
        .execute();
    },

    /** The percentages of those of `bookIds` the user has a position in (one query). */
    async percentages(userId: string, bookIds: readonly string[]): Promise<Map<string, number>> {
      if (bookIds.length === 0) return new Map();
      const rows = await db
        .selectFrom('reading_positions')
        .select(['book_id', 'percentage'])
        .where('user_id', '=', userId)
        .where('book_id', 'in', bookIds)
        .execute();
      return new Map(rows.map((row) => [row.book_id, Number(row.percentage)]));
    },

    /** The user's positions, the newest first. */
    async recent(userId: string, limit: number): Promise<StoredPosition[]> {
      const rows = await db
        .selectFrom('reading_positions')
        .select(COLUMNS)
        .where('user_id', '=', userId)
        .orderBy('updated_at', 'desc')
        .orderBy('book_id')
        .limit(limit)
        .execute();
      return rows.map(fromRow);
    },
  };
}
export type PositionsStore = ReturnType<typeof createPositionsStore>;
