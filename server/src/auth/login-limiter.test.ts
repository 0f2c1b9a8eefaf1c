import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../errors.ts';
import { boundedLane, HASHING_LIMITS } from './hashing-queue.ts';
import { createLoginLimiter, SIGN_IN_LIMITS } from './login-limiter.ts';

const refusal = async (check: Promise<void>) => {
  const error = await check.then(() => null, (caught: unknown) => caught);
  if (error === null) return null;
  if (!(error instanceof AppError)) throw error;
  return { status: error.statusCode, retryAfter: Number(error.headers['retry-after']) };
};

describe('the sign-in limiter', () => {
  // The limiter keeps its windows by the system clock; the test moves it.
  beforeEach(() => vi.useFakeTimers({ now: Date.UTC(2026, 0, 5, 12) }));
  afterEach(() => vi.useRealTimers());

  const { perAccountAndAddress, perAddress, perAccount } = SIGN_IN_LIMITS;

  it('holds back one account at one address, not the other accounts of that address', async () => {
    const limiter = createLoginLimiter();
    for (let i = 0; i < perAccountAndAddress.failures; i++) await limiter.recordFailure('10.0.0.1', 'ann@example.org');
    expect(await refusal(limiter.assertAllowed('10.0.0.1', 'ann@example.org'))).toEqual({ status: 429, retryAfter: 60 });
    expect(await refusal(limiter.assertAllowed('10.0.0.1', 'bob@example.org'))).toBeNull();
    expect(await refusal(limiter.assertAllowed('10.0.0.2', 'ann@example.org'))).toBeNull();
    vi.advanceTimersByTime(perAccountAndAddress.seconds * 1000);
    expect(await refusal(limiter.assertAllowed('10.0.0.1', 'ann@example.org'))).toBeNull();
  });

  it('forgives typos at one address once the right password is given', async () => {
    const limiter = createLoginLimiter();
    for (let i = 0; i < perAccountAndAddress.failures - 1; i++) await limiter.recordFailure('10.0.0.1', 'ann@example.org');
    await limiter.recordSuccess('10.0.0.1', 'ann@example.org');
    await limiter.recordFailure('10.0.0.1', 'ann@example.org');
    expect(await refusal(limiter.assertAllowed('10.0.0.1', 'ann@example.org'))).toBeNull();
  });

  it(`holds back an address after ${perAddress.failures} failures across accounts`, async () => {
    const limiter = createLoginLimiter();
    for (let i = 0; i < perAddress.failures; i++) await limiter.recordFailure('10.0.0.1', `person${i}@example.org`);
    expect((await refusal(limiter.assertAllowed('10.0.0.1', 'someone-new@example.org')))?.status).toBe(429);
    expect(await refusal(limiter.assertAllowed('10.0.0.2', 'someone-new@example.org'))).toBeNull();
  });

  it(`locks an account guessed at from many addresses after ${perAccount.failures} failures, each lockout twice the last`, async () => {
    const limiter = createLoginLimiter();
    const guess = async (round: number) => {
      for (let i = 0; i < perAccount.failures; i++) await limiter.recordFailure(`10.${round}.0.${i}`, 'ann@example.org');
    };
    await guess(1);
    expect(await refusal(limiter.assertAllowed('192.0.2.1', 'ann@example.org'))).toEqual({
      status: 429,
      retryAfter: perAccount.lockoutSeconds,
    });
    expect(await refusal(limiter.assertAllowed('192.0.2.1', 'bob@example.org'))).toBeNull();
    vi.advanceTimersByTime(perAccount.lockoutSeconds * 1000);
    expect(await refusal(limiter.assertAllowed('192.0.2.1', 'ann@example.org'))).toBeNull();
    await guess(2);
    expect(await refusal(limiter.assertAllowed('192.0.2.1', 'ann@example.org'))).toEqual({
      status: 429,
      retryAfter: 2 * perAccount.lockoutSeconds,
    });
  });
});

describe('a bounded hashing lane', () => {
  it('runs at most its share at once, queues a few, and refuses the rest at once with a 503 and Retry-After', async () => {
    const lane = boundedLane({ running: 1, waiting: 2 }, 'busy');
    const releases: (() => void)[] = [];
    let running = 0;
    let most = 0;
    const work = () =>
      new Promise<void>((resolve) => {
        running += 1;
        most = Math.max(most, running);
        releases.push(() => {
          running -= 1;
          resolve();
        });
      });
    const accepted = [lane(work), lane(work), lane(work)];
    await Promise.resolve();
    expect(() => lane(work)).toThrow(AppError);
    try {
      lane(work);
    } catch (error) {
      expect(error).toMatchObject({ statusCode: 503, headers: { 'retry-after': String(HASHING_LIMITS.retryAfterSeconds) } });
    }
    while (releases.length > 0 || running > 0) {
      releases.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(accepted);
    expect(most).toBe(1);
  });
});
