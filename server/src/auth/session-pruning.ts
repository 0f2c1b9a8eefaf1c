import type { Logger } from '../logger.ts';
import type { Job } from '../job.ts';
import type { AuthService } from './auth.service.ts';

const SESSION_PRUNE_INTERVAL_MS = 6 * 60 * 60 * 1000;

/** Deletes long-expired sessions every few hours. */
export function sessionPruningJob(auth: AuthService, log: Logger): Job {
  let timer: NodeJS.Timeout | undefined;
  return {
    name: 'session pruning',
    start() {
      timer = setInterval(() => {
        auth.pruneSessions().catch((error: unknown) => log.warn({ err: error }, 'pruning sessions failed'));
      }, SESSION_PRUNE_INTERVAL_MS);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
    },
  };
}
