import type { KoreaderProgressReply, KoreaderProgressBody } from '../../../contract/koreader.ts';
import type { Clock } from '../clock.ts';
import type { DocumentIds } from './document-ids.ts';
import type { KoreaderStore } from './koreader.store.ts';
import { koreaderProgressOf, webLocatorOf } from './koreader-progress.ts';
import type { PositionsStore } from './positions.store.ts';

/** KOReader's timestamps are whole seconds, as its own server's `os.time()`. */
const seconds = (ms: number) => Math.floor(ms / 1000);

type Dependencies = {
  documents: KoreaderStore;
  positions: PositionsStore;
  documentIds: Pick<DocumentIds, 'fileOf'>;
  clock: Pick<Clock, 'now'>;
};

/**
 * KOReader's progress sync over the reading positions: a document id that is a file of the library
 * is that book's position, the one the web reader reads and writes; every document's progress is
 * also kept as KOReader sent it, so devices of one kind give each other their exact place.
 */
export function createKoreaderService({ documents, positions, documentIds, clock }: Dependencies) {
  return {
    async put(userId: string, body: KoreaderProgressBody): Promise<{ document: string; timestamp: number }> {
      const now = clock.now();
      const progress = {
        document: body.document,
        progress: body.progress,
        percentage: body.percentage,
        device: body.device,
        deviceId: body.device_id ?? null,
        updatedAt: now,
      };
      const [file] = await Promise.all([documentIds.fileOf(body.document), documents.put(userId, progress)]);
      if (file) {
        await positions.put(userId, {
          bookId: file.bookId,
          percentage: body.percentage,
          locator: webLocatorOf(body.progress, file.format),
          device: body.device,
          deviceId: progress.deviceId,
          koreaderProgress: body.progress,
          updatedAt: now,
        });
      }
      return { document: body.document, timestamp: seconds(now) };
    },

    /**
     * The newest of the document's own progress and its book's position, when the book's can be
     * given in KOReader's terms; `{}` when there is neither, as the protocol answers.
     */
    async get(userId: string, document: string): Promise<KoreaderProgressReply> {
      const [own, file] = await Promise.all([documents.get(userId, document), documentIds.fileOf(document)]);
      const position = file ? await positions.get(userId, file.bookId) : null;
      if (position && file && position.updatedAt > (own?.updatedAt ?? -Infinity)) {
        const progress = koreaderProgressOf(position, file.format);
        if (progress !== null) {
          return {
            document,
            percentage: position.percentage,
            progress,
            device: position.device,
            ...(position.deviceId === null ? {} : { device_id: position.deviceId }),
            timestamp: seconds(position.updatedAt),
          };
        }
      }
      if (!own) return {};
      return {
        document,
        percentage: own.percentage,
        progress: own.progress,
        device: own.device,
        ...(own.deviceId === null ? {} : { device_id: own.deviceId }),
        timestamp: seconds(own.updatedAt),
      };
    },
  };
}
export type KoreaderService = ReturnType<typeof createKoreaderService>;
