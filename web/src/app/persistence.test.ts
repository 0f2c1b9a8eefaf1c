import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { signedIn } from '../features/auth/auth.slice.ts';
import { persistState, restoreState, STATE_KEY, type StateStorage } from './persistence.ts';
import { createAppStore } from './store.ts';

/** A Storage that keeps its items in a map and counts the writes. */
class MemoryStorage implements StateStorage {
  map: Map<string, string>;
  writes = 0;

  constructor(items: Record<string, string> = {}) {
    this.map = new Map(Object.entries(items));
  }

  getItem(key: string): string | null {
    return this.map.get(key) ?? null;
  }

  setItem(key: string, value: string): void {
    this.writes += 1;
    this.map.set(key, value);
  }
}


const ada = { uid: 'u1', email: 'ada@example.org', displayName: 'Ada', admin: false };
const defaults = createAppStore().getState();

describe('state persistence', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('saves the whole state under one key, and restores it', () => {
    const storage = new MemoryStorage();
    const store = createAppStore();
    persistState(store, storage, 500);

    store.dispatch(signedIn({ idToken: 'token-1', user: ada }));
    vi.advanceTimersByTime(500);

    expect([...storage.map.keys()]).toEqual([STATE_KEY]);
    expect(restoreState(storage)).toEqual(store.getState());
    expect(restoreState(storage)?.auth).toMatchObject({ authenticated: true, uid: 'u1', idToken: 'token-1' });
  });

  it('writes at most once per wait, with the latest state', () => {
    const storage = new MemoryStorage();
    const store = createAppStore();
    persistState(store, storage, 500);

    store.dispatch(signedIn({ idToken: 'token-1', user: ada }));
    store.dispatch(signedIn({ idToken: 'token-2', user: ada }));
    vi.advanceTimersByTime(499);
    expect(storage.writes).toBe(0);

    vi.advanceTimersByTime(1);
    expect(storage.writes).toBe(1);
    expect(restoreState(storage)?.auth).toMatchObject({ idToken: 'token-2' });
  });

  it('saves at once when flushed, and not again without a change', () => {
    const storage = new MemoryStorage();
    const store = createAppStore();
    const flush = persistState(store, storage, 500);

    store.dispatch(signedIn({ idToken: 'token-1', user: ada }));
    flush();
    expect(storage.writes).toBe(1);

    vi.advanceTimersByTime(1000);
    flush();
    expect(storage.writes).toBe(1);
  });

  it('starts from the defaults when nothing was saved', () => {
    expect(restoreState(new MemoryStorage())).toBeUndefined();
  });

  it('starts from the defaults when the saved value is not JSON or not an object', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});

    expect(restoreState(new MemoryStorage({ [STATE_KEY]: '{"auth": {"authent' }))).toBeUndefined();
    expect(restoreState(new MemoryStorage({ [STATE_KEY]: '42' }))).toBeUndefined();
    expect(restoreState(new MemoryStorage({ [STATE_KEY]: 'null' }))).toBeUndefined();
  });

  it('falls back to the defaults slice by slice when a saved slice has an old or damaged shape', () => {
    const saved = {
      app: { ...defaults.app, keys: 'tolkien', size: 'ten' },
      auth: { authenticated: true, uid: 'u1' },
      task: { ...defaults.task, pageCursor: 'c2' },
    };

    const restored = restoreState(new MemoryStorage({ [STATE_KEY]: JSON.stringify(saved) }));

    expect(restored).toEqual({ ...defaults, task: { ...defaults.task, pageCursor: 'c2' } });
  });

  it('drops fields the current version does not know', () => {
    const saved = { ...defaults, auth: { authenticated: false, idToken: 'left-over' } };

    const restored = restoreState(new MemoryStorage({ [STATE_KEY]: JSON.stringify(saved) }));

    expect(restored?.auth).toEqual({ authenticated: false });
  });

  it('starts from the defaults when storage cannot be read, and keeps running when it cannot be written', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const broken: StateStorage = {
      getItem: () => {
        throw new DOMException('denied', 'SecurityError');
      },
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError');
      },
    };
    expect(restoreState(broken)).toBeUndefined();

    const store = createAppStore();
    const flush = persistState(store, broken, 500);
    store.dispatch(signedIn({ idToken: 'token-1', user: ada }));
    expect(() => flush()).not.toThrow();
  });
});
