import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { boundedLane, HASHING_LIMITS } from './hashing-queue.ts';

/** Work that runs until it is let go. */
function held() {
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  return { work: () => done, release };
}

const refusal = (act: () => unknown) => {
  try {
    act();
  } catch (error) {
    return error;
  }
  return undefined;
};

describe('boundedLane', () => {
  it('runs one and queues two, refuses the next at once with 503 and Retry-After, and has room again once the work ends', async () => {
    const lane = boundedLane({ running: 1, waiting: 2 }, 'Busy');
    const first = held();
    const started = [lane(first.work), lane(() => Promise.resolve()), lane(() => Promise.resolve())];

    const refused = refusal(() => lane.assertRoom());
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).statusCode).toBe(503);
    expect((refused as AppError).message).toBe('Busy');
    expect((refused as AppError).headers).toEqual({ 'retry-after': String(HASHING_LIMITS.retryAfterSeconds) });
    // The lane itself refuses the same way, and runs nothing it refused.
    let ran = false;
    expect(
      refusal(() =>
        lane(async () => {
          ran = true;
        }),
      ),
    ).toBeInstanceOf(AppError);

    first.release();
    await Promise.all(started);
    expect(ran).toBe(false);
    expect(refusal(() => lane.assertRoom())).toBeUndefined();
    await expect(lane(() => Promise.resolve('after'))).resolves.toBe('after');
  });

  it('has room while fewer than its waiting limit wait', () => {
    const lane = boundedLane({ running: 1, waiting: 2 }, 'Busy');
    const first = held();
    void lane(first.work);
    void lane(() => Promise.resolve());
    expect(refusal(() => lane.assertRoom())).toBeUndefined();
    first.release();
  });
});
