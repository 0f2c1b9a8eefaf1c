import type { ExpressionBuilder, Kysely, Transaction } from 'kysely';
import type { BookmarkImportsTable, Database } from '../storage/schema.ts';

/**
 * How long a running import's row may go unrenewed before it counts as cut short: its server
 * renews it far more often while it runs, and a server killed renews it no more. With PostgreSQL
 * several servers share the table, so that the age of the row is all that tells one of them that
 * another has stopped.
 */
export const ALIVE_FOR_MS = 30_000;

/** An import as its row keeps it. */
export type ImportRecord = Pick<BookmarkImportsTable, 'id' | 'file_sha256' | 'links' | 'imported' | 'started_at'>;

type Db = Kysely<Database> | Transaction<Database>;

/** Whether an import had stopped before the end at `now`: it failed, or its server stopped renewing it. */
const stoppedBy = (now: number) => (eb: ExpressionBuilder<Database, 'bookmark_imports'>) =>
  eb.or([eb('state', '=', 'failed'), eb('alive_at', '<', now - ALIVE_FOR_MS)]);

/** The imports of each owner that are writing, or that stopped before the end; every query has the owner in its WHERE. */
export function createBookmarkImportsStore(db: Kysely<Database>) {
  /** The owner's imports that stopped before the end, as of `now`. */
  const cutShort = (from: Db, ownerId: string, now: number) => from.selectFrom('bookmark_imports').where('owner_id', '=', ownerId).where(stoppedBy(now));

  return {
    async start(ownerId: string, record: ImportRecord): Promise<void> {
      await db
        .insertInto('bookmark_imports')
        .values({ ...record, owner_id: ownerId, state: 'running', alive_at: record.started_at })
        .execute();
    },

    /** The links written so far; inside the transaction `trx` that writes them, so that the count is never more or less than what is stored. */
    async written(trx: Transaction<Database>, ownerId: string, id: string, imported: number, now: number): Promise<void> {
      await trx.updateTable('bookmark_imports').set({ imported, alive_at: now }).where('owner_id', '=', ownerId).where('id', '=', id).execute();
    },

    /** The import still runs. */
    async alive(ownerId: string, id: string, now: number): Promise<void> {
      await db.updateTable('bookmark_imports').set({ alive_at: now }).where('owner_id', '=', ownerId).where('id', '=', id).execute();
    },

    /** The import stopped on an error: kept as cut short when it wrote something, else forgotten. */
    async failed(ownerId: string, id: string): Promise<void> {
      await db.deleteFrom('bookmark_imports').where('owner_id', '=', ownerId).where('id', '=', id).where('imported', '=', 0).execute();
      await db.updateTable('bookmark_imports').set({ state: 'failed' }).where('owner_id', '=', ownerId).where('id', '=', id).execute();
    },

    /** The import wrote every link: it is forgotten, and so is every import of the same file that was cut short, which it has finished. */
    async finished(ownerId: string, record: Pick<ImportRecord, 'id' | 'file_sha256'>, now: number): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('bookmark_imports').where('owner_id', '=', ownerId).where('id', '=', record.id).execute();
        await trx
          .deleteFrom('bookmark_imports')
          .where('owner_id', '=', ownerId)
          .where('file_sha256', '=', record.file_sha256)
          .where(stoppedBy(now))
          .execute();
      });
    },

    /** The owner's latest import that stopped before the end, if any. */
    latestCutShort(ownerId: string, now: number): Promise<ImportRecord | undefined> {
      return cutShort(db, ownerId, now)
        .select(['id', 'file_sha256', 'links', 'imported', 'started_at'])
        .orderBy('started_at', 'desc')
        .limit(1)
        .executeTakeFirst();
    },

    /** Forgets one of the owner's imports that was cut short; false when there is none of that id. */
    async dismiss(ownerId: string, id: string, now: number): Promise<boolean> {
      const found = await cutShort(db, ownerId, now).where('id', '=', id).select('id').executeTakeFirst();
      if (!found) return false;
      await db.deleteFrom('bookmark_imports').where('owner_id', '=', ownerId).where('id', '=', id).execute();
      return true;
    },
  };
}
export type BookmarkImportsStore = ReturnType<typeof createBookmarkImportsStore>;
