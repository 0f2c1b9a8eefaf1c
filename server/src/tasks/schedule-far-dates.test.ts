import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import type { RepeatingType } from '../../../contract/tasks.ts';
import { firstNotice, type NoticeRules, repeatNotice } from './notice-times.ts';
import { nextOccurrence, occurrence, type Series } from './schedule.ts';

const TYPES: RepeatingType[] = ['y', 'q', 'm', 'b', 'w', 'd'];
const APPROXIMATE_STEP_DAYS: Record<RepeatingType, number> = { y: 365, q: 91, m: 30, b: 14, w: 7, d: 1 };
// DST both ways, a half-hour DST, changes at midnight, and Samoa's skipped 30 December 2011.
const ZONES = ['UTC', 'America/New_York', 'Europe/London', 'Australia/Lord_Howe', 'America/Santiago', 'Pacific/Apia'];
const DAY = 86_400_000;
const NOW = Date.UTC(2026, 2, 5, 12);
const EARLIEST_MS = -8.64e15;
const LATEST_MS = 8.64e15;
const utc = (time: number | string) => new Date(time).toISOString();

/** A repeatable sequence of numbers in [0, 1), so that a failure can be run again. */
function randoms(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

/** What the jump must equal: the occurrences stepped through one by one. */
function steppedNextOccurrence(series: Series, index: number, after: number) {
  for (let n = index + 1; ; n += 1) {
    const time = occurrence(series, n)!;
    if (time > after) return { index: n, time };
  }
}

/** What the jump must equal: the sent notice's local time, a day later at a time, until past `after`. */
function steppedRepeat(sent: number, after: number, rules: NoticeRules) {
  const sentAt = DateTime.fromMillis(sent, { zone: rules.zone });
  for (let days = 1; ; days += 1) {
    const time = sentAt.plus({ days });
    if (time.toMillis() > after && !(rules.noticeInWorkday && time.weekday >= 6)) return time.toMillis();
  }
}

const rules = (zone: string, overrides: Partial<NoticeRules> = {}): NoticeRules => ({
  zone,
  overdueNotice: true,
  noticeHours: [],
  noticeInWorkday: false,
  ...overrides,
});

/** Milliseconds `run` takes. */
function timed(run: () => void): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

describe('schedule computations jump, whatever the dates', () => {
  it('land where stepping one occurrence at a time lands, in every type and zone', () => {
    const random = randoms(11);
    const check = (series: Series, index: number, after: number) =>
      expect(nextOccurrence(series, index, after), `${series.type} from ${utc(series.anchor)} in ${series.zone} after ${utc(after)}`).toEqual(
        steppedNextOccurrence(series, index, after),
      );
    for (let i = 0; i < 360; i += 1) {
      const zone = ZONES[i % ZONES.length]!;
      const type = TYPES[Math.floor(i / ZONES.length) % TYPES.length]!;
      const series: Series = { anchor: Date.UTC(1900, 0, 1) + Math.floor(random() * 300 * 365 * DAY), type, zone };
      const index = Math.floor(random() * 3);
      // Up to 20 steps on: the count of steps is found the same way over any span, and stepping stays cheap.
      check(series, index, occurrence(series, index)! + Math.floor(random() * 20 * APPROXIMATE_STEP_DAYS[type] * DAY));
    }
    // Around Samoa's missing day, hour by hour, for series due at every other hour of the day.
    for (let hour = 0; hour < 24; hour += 2) {
      const series: Series = { anchor: DateTime.fromObject({ year: 2011, month: 12, day: 25, hour }, { zone: 'Pacific/Apia' }).toMillis(), type: 'd', zone: 'Pacific/Apia' };
      for (let after = Date.UTC(2011, 11, 28); after < Date.UTC(2012, 0, 2); after += DAY / 24) check(series, 0, after);
    }
  });

  it('repeat notices land where stepping a day at a time lands, weekends skipped or not', () => {
    const random = randoms(7);
    for (let i = 0; i < 360; i += 1) {
      const zone = ZONES[i % ZONES.length]!;
      const noticeRules = rules(zone, { noticeInWorkday: i % 2 === 0 });
      const sent = Date.UTC(1900, 0, 1) + Math.floor(random() * 300 * 365 * DAY);
      const now = sent + Math.floor(random() * 20 * DAY);
      expect(repeatNotice(sent, now, noticeRules), `${utc(sent)} then ${utc(now)} in ${zone}`).toBe(steppedRepeat(sent, now, noticeRules));
    }
  });

  it('move a first notice due at the weekend to Monday at the same local time', () => {
    const saturday = DateTime.fromISO('2026-10-24T01:30', { zone: 'Europe/London' });
    expect(utc(firstNotice(saturday.toMillis(), rules('Europe/London', { noticeInWorkday: true }))!)).toBe(
      utc(saturday.plus({ days: 2 }).toISO()!),
    );
    const sunday = saturday.plus({ days: 1 });
    expect(firstNotice(sunday.toMillis(), rules('Europe/London', { noticeInWorkday: true }))).toBe(sunday.plus({ days: 1 }).toMillis());
  });

  it('cost next to nothing for a series a thousand years old', () => {
    const anchor = Date.UTC(1000, 0, 1, 7);
    let next: ReturnType<typeof nextOccurrence> = null;
    let repeat: number | null = null;
    const elapsed = timed(() => {
      for (const zone of ['UTC', 'America/New_York']) {
        for (const type of TYPES) next = nextOccurrence({ anchor, type, zone }, 0, NOW);
        repeat = repeatNotice(anchor, NOW, rules(zone));
      }
    });
    // Stepping took 0.7 s for the daily series and 5 s for the repeat notice.
    expect(elapsed).toBeLessThan(100);
    // The last of them, in New York: its local mean time of 1000 (UTC-4:56:02) made 07:00 02:03:58.
    expect(utc(next!.time)).toBe('2026-03-06T07:03:58.000Z');
    expect(utc(repeat!)).toBe('2026-03-06T07:03:58.000Z');
  });

  it('cost next to nothing from the first day JavaScript can hold to now', () => {
    const anchor = Date.parse('-271821-04-20T00:00:00Z');
    expect(anchor).toBe(EARLIEST_MS);
    const expected: Record<RepeatingType, string> = {
      y: '2026-04-20T00:00:00.000Z',
      q: '2026-04-20T00:00:00.000Z',
      m: '2026-03-20T00:00:00.000Z',
      // -271821-04-20 is a Tuesday, 100,020,522 days (7,144,323 fortnights) before 2026-03-10.
      b: '2026-03-10T00:00:00.000Z',
      w: '2026-03-10T00:00:00.000Z',
      d: '2026-03-06T00:00:00.000Z',
    };
    const found: Partial<Record<RepeatingType, string>> = {};
    let repeat: number | null = null;
    const elapsed = timed(() => {
      for (const type of TYPES) found[type] = utc(nextOccurrence({ anchor, type, zone: 'UTC' }, 0, NOW)!.time);
      repeat = repeatNotice(anchor, NOW, rules('UTC', { noticeInWorkday: true }));
    });
    expect(elapsed).toBeLessThan(100);
    expect(found).toEqual(expected);
    expect(utc(repeat!)).toBe('2026-03-06T00:00:00.000Z');
  });

  it('give none for a time the calendar cannot hold: past its end, or past its start in the owner\'s zone', () => {
    expect(occurrence({ anchor: LATEST_MS, type: 'd', zone: 'UTC' }, 1)).toBeNull();
    expect(nextOccurrence({ anchor: LATEST_MS, type: 'y', zone: 'UTC' }, 0, LATEST_MS)).toBeNull();
    // Valid in UTC, but its local time in New York lies before the first day JavaScript holds.
    expect(nextOccurrence({ anchor: EARLIEST_MS, type: 'd', zone: 'America/New_York' }, 0, NOW)).toBeNull();
    expect(repeatNotice(EARLIEST_MS, NOW, rules('America/New_York'))).toBeNull();
    expect(firstNotice(EARLIEST_MS, rules('America/New_York'))).toBeNull();
    // +275760-09-13 is a Saturday: Monday lies beyond the end.
    expect(firstNotice(LATEST_MS, rules('UTC', { noticeInWorkday: true }))).toBeNull();
    expect(repeatNotice(LATEST_MS - DAY / 2, LATEST_MS - DAY / 2, rules('UTC'))).toBeNull();
    expect(repeatNotice(LATEST_MS - DAY / 2, LATEST_MS - DAY / 2, rules('UTC', { noticeHours: [6] }))).toBeNull();
  });
});
