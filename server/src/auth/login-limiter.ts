import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from '../errors.ts';

export const MAX_FAILED_SIGN_INS_PER_MINUTE = 10;

/** Counts failed sign-ins per address; only failures count, so a household behind one address is not locked out by its own successes. */
export function createLoginLimiter() {
  const limiter = new RateLimiterMemory({ points: MAX_FAILED_SIGN_INS_PER_MINUTE, duration: 60 });
  return {
    async assertAllowed(address: string): Promise<void> {
      const state = await limiter.get(address);
      if (state && state.consumedPoints >= MAX_FAILED_SIGN_INS_PER_MINUTE) {
        const seconds = Math.max(1, Math.ceil(state.msBeforeNext / 1000));
        throw new AppError(429, `Too many failed sign-ins; try again in ${seconds} seconds`, {
          'retry-after': String(seconds),
        });
      }
    },
    async recordFailure(address: string): Promise<void> {
      await limiter.consume(address).catch((rejection: unknown) => {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
      });
    },
  };
}
export type LoginLimiter = ReturnType<typeof createLoginLimiter>;
