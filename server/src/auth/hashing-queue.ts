import pLimit, { type LimitFunction } from 'p-limit';
import { AppError } from '../errors.ts';
import { hashPassword, PASSWORD_COST, type PasswordCost, verifyPassword } from './passwords.ts';

/**
 * scrypt runs on libuv's threadpool (4 threads), about 0.1 s of one thread a hash. New hashes
 * (sign-up, later password changes) and sign-ins each get threads of their own, so that a flood
 * of registrations holds one thread and a sign-in waits for no registration's hash; the fourth
 * thread stays free for file system work.
 */
export const HASHING_LIMITS = {
  newHashes: { running: 1, waiting: 8 },
  signIns: { running: 2, waiting: 32 },
  retryAfterSeconds: 5,
} as const;

/**
 * Runs at most `running` at once with at most `waiting` queued; beyond that, refuses at once rather
 * than queue without end. `assertRoom` refuses as the lane would, for a caller that can tell before
 * the work's inputs are read.
 */
export function boundedLane({ running, waiting }: { running: number; waiting: number }, busy: string) {
  const limit: LimitFunction = pLimit(running);
  const assertRoom = () => {
    if (limit.pendingCount >= waiting) {
      throw new AppError(503, busy, { 'retry-after': String(HASHING_LIMITS.retryAfterSeconds) });
    }
  };
  const lane = <T>(work: () => Promise<T>): Promise<T> => {
    assertRoom();
    return limit(work);
  };
  return Object.assign(lane, { assertRoom });
}

/** `cost`: the new hashes' scrypt parameters. */
export function createHashingQueue(cost: PasswordCost = PASSWORD_COST) {
  const newHashes = boundedLane(HASHING_LIMITS.newHashes, 'Too many accounts are being set up right now; please try again in a few seconds');
  const signIns = boundedLane(HASHING_LIMITS.signIns, 'Too many sign-ins are under way right now; please try again in a few seconds');
  return {
    hash: (password: string) => newHashes(() => hashPassword(password, cost)),
    /** Refuses a new hash now when its lane is full, as `hash` would. */
    assertRoomForNewHash: () => newHashes.assertRoom(),
    verify: (password: string, stored: string) => signIns(() => verifyPassword(password, stored)),
  };
}
export type HashingQueue = ReturnType<typeof createHashingQueue>;
