import { describe, expect, it } from 'vitest';
import type { CatalogueLoad } from '../../../../contract/books.ts';
import { percent } from '../../lib/progress.ts';
import { loadingBarText, serverPhaseText, STEADY_AFTER_MS, timeLeftMs, timeLeftText } from './catalogue-load-text.ts';

const load = (fields: Partial<CatalogueLoad>): CatalogueLoad => ({
  id: 'l1',
  kind: 'upload',
  mode: 'update',
  phase: 'reading',
  read: 0,
  written: 0,
  errors: 0,
  bytes: 0,
  total_bytes: null,
  estimated_total: null,
  started_at: '2026-11-22T10:00:00.000Z',
  finished_at: null,
  message: null,
  ...fields,
});

describe('catalogue load texts', () => {
  it('says the slim bar’s words, with thousands separated', () => {
    expect(loadingBarText(load({ read: 412_000, estimated_total: 1_000_000 }))).toBe('Loading the catalogue: 412,000 of about 1,000,000 books');
    expect(loadingBarText(load({ read: 1200 }))).toBe('Loading the catalogue: 1,200 books so far');
    expect(loadingBarText(load({ phase: 'receiving', bytes: 5 * 1024 * 1024, total_bytes: 20 * 1024 * 1024 }))).toBe(
      'Loading the catalogue: receiving the file, 5.0 MB of 20.0 MB',
    );
  });

  it('never says "of about" fewer than were read', () => {
    expect(loadingBarText(load({ read: 1500, estimated_total: 1400 }))).toBe('Loading the catalogue: 1,500 of about 1,500 books');
  });

  it('tells the server phase’s counts as the importer gives them', () => {
    expect(serverPhaseText(load({ read: 3000, written: 2990, errors: 10, estimated_total: 100_000 }))).toBe(
      'reading: 3,000 of about 100,000 read, 2,990 written, 10 errors',
    );
    expect(serverPhaseText(load({ phase: 'writing', read: 10, written: 10 }))).toBe('saving: 10 read, 10 written, 0 errors');
  });

  it('estimates the time left only once the rate is steady', () => {
    const running = load({ read: 30_000, estimated_total: 100_000 });
    expect(timeLeftMs(running, null, 10_000)).toBeNull();
    expect(timeLeftMs(running, { at: 0, read: 0 }, STEADY_AFTER_MS - 1)).toBeNull();
    // 30,000 in 6 s: 70,000 more take 14 s.
    expect(timeLeftMs(running, { at: 0, read: 0 }, 6000)).toBe(14_000);
    expect(timeLeftMs(load({ read: 30_000 }), { at: 0, read: 0 }, 6000)).toBeNull();
    expect(timeLeftText(14_000)).toBe('about 14 s left');
    expect(timeLeftText(150_000)).toBe('about 3 min left');
  });

  it('fills a bar to at most 100 percent, and not at all without a whole', () => {
    expect(percent(50, 200)).toBe(25);
    expect(percent(300, 200)).toBe(100);
    expect(percent(5, null)).toBe(0);
  });
});
