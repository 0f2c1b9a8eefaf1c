import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.ts';

/** KOReader's progress for one of its document ids, as it sent it; `updatedAt` is the server's time of the PUT. */
export type KoreaderProgress = {
  document: string;
  progress: string;
  percentage: number;
  device: string;
  deviceId: string | null;
  updatedAt: number;
};

/**
 * KOReader's progress by document id, per user: kept whether or not the document is a book of the
 * library, so that devices of one kind sync with each other exactly, as with KOReader's own server.
 */
export function createKoreaderStore(db: Kysely<Database>) {
  return {
    async get(userId: string, document: string): Promise<KoreaderProgress | null> {
      const row = await db
        .selectFrom('koreader_documents')
        .select(['document', 'progress', 'percentage', 'device', 'device_id', 'updated_at'])
        .where('user_id', '=', userId)
        .where('document', '=', document)
        .executeTakeFirst();
      if (!row) return null;
      const { device_id: deviceId, updated_at: updatedAt, percentage, ...rest } = row;
      return { ...rest, percentage: Number(percentage), deviceId, updatedAt: Number(updatedAt) };
    },

    /** The protocol's rule: the last PUT is the progress. */
    async put(userId: string, progress: KoreaderProgress): Promise<void> {
      const values = {
        progress: progress.progress,
        percentage: progress.percentage,
        device: progress.device,
        device_id: progress.deviceId,
        updated_at: progress.updatedAt,
      };
      await db
        .insertInto('koreader_documents')
        .values({ user_id: userId, document: progress.document, ...values })
        .onConflict((oc) => oc.columns(['user_id', 'document']).doUpdateSet(values))
        .execute();
    },
  };
}
export type KoreaderStore = ReturnType<typeof createKoreaderStore>;
