import { AppError } from '../errors.ts';

/** Seconds a client refused for a busy server is told to wait. */
const RETRY_AFTER_SECONDS = 30;

/**
 * Keeps imports from crowding out everything else: a user runs one at a time, and this server
 * at most `limit` together, since each holds its file and its text in memory while it runs.
 */
export function createImportGate(limit: number) {
  const running = new Set<string>();
  return {
    async run<T>(ownerId: string, work: () => Promise<T>): Promise<T> {
      if (running.has(ownerId)) throw new AppError(409, 'An import of yours is already running: wait for it to finish, then import again');
      if (running.size >= limit) {
        throw new AppError(503, `The server is busy with other imports: try again in ${RETRY_AFTER_SECONDS} seconds`, {
          'retry-after': String(RETRY_AFTER_SECONDS),
        });
      }
      running.add(ownerId);
      try {
        return await work();
      } finally {
        running.delete(ownerId);
      }
    },
  };
}
