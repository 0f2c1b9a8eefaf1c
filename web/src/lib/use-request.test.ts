import { describe, expect, it } from 'vitest';
import { createRequestRunner } from './use-request.ts';

/** A request that ends when the test says, and records the signal it was given. */
function heldRequest() {
  let finish = () => {};
  let signal: AbortSignal | null = null;
  const request = (given: AbortSignal) => {
    signal = given;
    return new Promise<void>((resolve) => (finish = resolve));
  };
  return { request, finish: () => finish(), signal: () => signal };
}

/** A runner, and what it said of being busy. */
function watchedRunner() {
  const heard: boolean[] = [];
  return { heard, runner: createRequestRunner((busy) => heard.push(busy)) };
}

describe('running a screen’s requests', () => {
  it('is busy from the start of a request to its end', async () => {
    const { heard, runner } = watchedRunner();
    const held = heldRequest();
    const running = runner.run(held.request);
    expect(heard).toEqual([true]);
    held.finish();
    await running;
    expect(heard).toEqual([true, false]);
    expect(held.signal()?.aborted).toBe(false);
  });

  it('cancels the request under way when a new one starts, and stays busy until the new one ends', async () => {
    const { heard, runner } = watchedRunner();
    const first = heldRequest();
    const second = heldRequest();
    const firstRun = runner.run(first.request);
    const secondRun = runner.run(second.request);
    expect(first.signal()?.aborted).toBe(true);
    first.finish();
    await firstRun;
    expect(heard).toEqual([true, true]);
    second.finish();
    await secondRun;
    expect(heard).toEqual([true, true, false]);
  });

  it('cancels on demand, and is no longer busy at once', async () => {
    const { heard, runner } = watchedRunner();
    const held = heldRequest();
    const running = runner.run(held.request);
    runner.cancel();
    expect(held.signal()?.aborted).toBe(true);
    expect(heard).toEqual([true, false]);
    held.finish();
    await running;
    runner.cancel();
    expect(heard).toEqual([true, false]);
  });

  it('ends busy when a request fails, and passes the failure on', async () => {
    const { heard, runner } = watchedRunner();
    await expect(runner.run(() => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    expect(heard).toEqual([true, false]);
  });
});
