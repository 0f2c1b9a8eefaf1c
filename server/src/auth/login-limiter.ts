import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { tooMany } from '../errors.ts';

/**
 * Failed sign-ins counted three ways (only failures count, so nobody is held back by their own
 * successes). Per account and address: one person's guesses or typos, which never hold back
 * another account of the same household behind one address. Per address: guesses across many
 * accounts, with a ceiling that a household's people together do not come near. Per account:
 * guesses at one account from many addresses, answered by a lockout that doubles each time.
 */
export const SIGN_IN_LIMITS = {
  perAccountAndAddress: { failures: 10, seconds: 60 },
  perAddress: { failures: 50, seconds: 15 * 60 },
  perAccount: { failures: 20, seconds: 15 * 60, lockoutSeconds: 15 * 60, longestLockoutSeconds: 24 * 60 * 60 },
} as const;

export const MAX_FAILED_SIGN_INS_PER_MINUTE = SIGN_IN_LIMITS.perAccountAndAddress.failures;

const ignoreRefusal = (rejection: unknown) => {
  if (!(rejection instanceof RateLimiterRes)) throw rejection;
  return rejection;
};

/** The e-mail is the one typed, known or not, so that an unknown e-mail is throttled exactly as a known one. */
export function createLoginLimiter() {
  const { perAccountAndAddress, perAddress, perAccount } = SIGN_IN_LIMITS;
  const pairs = new RateLimiterMemory({ points: perAccountAndAddress.failures, duration: perAccountAndAddress.seconds });
  const addresses = new RateLimiterMemory({ points: perAddress.failures, duration: perAddress.seconds });
  const accounts = new RateLimiterMemory({ points: perAccount.failures, duration: perAccount.seconds });
  // How many lockouts an account has had lately: each doubles the next.
  const lockouts = new RateLimiterMemory({ points: 1000, duration: perAccount.longestLockoutSeconds });
  const pairKey = (address: string, email: string) => `${address}\n${email}`;

  return {
    async assertAllowed(address: string, email: string): Promise<void> {
      const checks: [RateLimiterMemory, string, number][] = [
        [pairs, pairKey(address, email), perAccountAndAddress.failures],
        [addresses, address, perAddress.failures],
        [accounts, email, perAccount.failures],
      ];
      for (const [limiter, key, failures] of checks) {
        const state = await limiter.get(key);
        if (state && state.consumedPoints >= failures) throw tooMany('failed sign-ins', state.msBeforeNext);
      }
    },

    async recordFailure(address: string, email: string): Promise<void> {
      await pairs.consume(pairKey(address, email)).catch(ignoreRefusal);
      await addresses.consume(address).catch(ignoreRefusal);
      const account = await accounts.consume(email).catch(ignoreRefusal);
      if (account.consumedPoints === perAccount.failures) {
        const { consumedPoints: lockout } = await lockouts.consume(email).catch(ignoreRefusal);
        const seconds = Math.min(perAccount.lockoutSeconds * 2 ** (lockout - 1), perAccount.longestLockoutSeconds);
        await accounts.block(email, seconds);
      }
    },

    /** The right password forgives this person's typos at this address; the other counts stay. */
    async recordSuccess(address: string, email: string): Promise<void> {
      await pairs.delete(pairKey(address, email));
    },
  };
}
export type LoginLimiter = ReturnType<typeof createLoginLimiter>;

/**
 * Registrations per address, counted whatever their outcome: each costs a hash, and "an account
 * with this e-mail already exists" tells whether an address is registered, so guessing is slowed
 * as sign-in guessing is. A household opening its accounts one evening stays well below.
 */
export const REGISTRATIONS_PER_ADDRESS = { attempts: 20, seconds: 60 * 60 } as const;

export function createRegistrationLimiter() {
  const limiter = new RateLimiterMemory({ points: REGISTRATIONS_PER_ADDRESS.attempts, duration: REGISTRATIONS_PER_ADDRESS.seconds });
  return {
    async consume(address: string): Promise<void> {
      const result = await limiter.consume(address).catch(ignoreRefusal);
      if (result.consumedPoints > REGISTRATIONS_PER_ADDRESS.attempts) throw tooMany('sign-ups from this address', result.msBeforeNext);
    },
  };
}

/**
 * Reset requests, refused with a 429 past either count: per address (one place asking about many
 * e-mails) and per e-mail (one mailbox flooded with links from many places). The e-mail is the one
 * typed, known or not, so that the refusal tells nothing about whether it has an account.
 */
export const PASSWORD_RESETS = { perAddress: { requests: 10, seconds: 60 * 60 }, perEmail: { requests: 3, seconds: 60 * 60 } } as const;

export function createPasswordResetLimiter() {
  const { perAddress, perEmail } = PASSWORD_RESETS;
  const addresses = new RateLimiterMemory({ points: perAddress.requests, duration: perAddress.seconds });
  const emails = new RateLimiterMemory({ points: perEmail.requests, duration: perEmail.seconds });
  return {
    async consume(address: string, email: string): Promise<void> {
      const byAddress = await addresses.consume(address).catch(ignoreRefusal);
      if (byAddress.consumedPoints > perAddress.requests) throw tooMany('password reset requests from this address', byAddress.msBeforeNext);
      const byEmail = await emails.consume(email).catch(ignoreRefusal);
      if (byEmail.consumedPoints > perEmail.requests) throw tooMany('password reset requests for this e-mail', byEmail.msBeforeNext);
    },
  };
}
