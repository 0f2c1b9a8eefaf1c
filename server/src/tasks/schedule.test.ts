import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { firstNotice, type NoticeRules, repeatNotice } from './notice-times.ts';
import { nextOccurrence, occurrence, type Series } from './schedule.ts';

const NEW_YORK = 'America/New_York';
const LONDON = 'Europe/London';
const at = (local: string, zone: string) => DateTime.fromISO(local, { zone }).toMillis();
const local = (ms: number, zone: string) => DateTime.fromMillis(ms, { zone }).toFormat("yyyy-MM-dd'T'HH:mm ccc");
const occurrences = (series: Series, count: number) =>
  Array.from({ length: count }, (_, n) => local(occurrence(series, n)!, series.zone));

describe('occurrences', () => {
  it('of a one-off task are its first alone, and none follows it', () => {
    const once: Series = { anchor: at('2026-03-06T09:00', LONDON), type: 'o', zone: LONDON };
    expect(occurrences(once, 1)).toEqual(['2026-03-06T09:00 Fri']);
    expect(occurrence(once, 1)).toBeNull();
    expect(nextOccurrence(once, 0, once.anchor)).toBeNull();
    expect(nextOccurrence(once, 0, at('2020-01-01T00:00', LONDON))).toBeNull();
  });

  it('clamp month ends without drifting: Jan 31, Feb 28, Mar 31, Apr 30', () => {
    const series: Series = { anchor: at('2027-01-31T10:00', LONDON), type: 'm', zone: LONDON };
    expect(occurrences(series, 4)).toEqual([
      '2027-01-31T10:00 Sun',
      '2027-02-28T10:00 Sun',
      '2027-03-31T10:00 Wed',
      '2027-04-30T10:00 Fri',
    ]);
  });

  it('land on Feb 29 in a leap year, and Feb 28 in the years between', () => {
    const monthly: Series = { anchor: at('2028-01-31T08:00', NEW_YORK), type: 'm', zone: NEW_YORK };
    expect(occurrences(monthly, 2)[1]).toBe('2028-02-29T08:00 Tue');
    const yearly: Series = { anchor: at('2028-02-29T08:00', NEW_YORK), type: 'y', zone: NEW_YORK };
    expect(occurrences(yearly, 5)).toEqual([
      '2028-02-29T08:00 Tue',
      '2029-02-28T08:00 Wed',
      '2030-02-28T08:00 Thu',
      '2031-02-28T08:00 Fri',
      '2032-02-29T08:00 Sun',
    ]);
  });

  it('step quarters from the anchor, so Nov 30 gives Feb 28 then May 30', () => {
    const series: Series = { anchor: at('2026-11-30T09:00', LONDON), type: 'q', zone: LONDON };
    expect(occurrences(series, 3)).toEqual(['2026-11-30T09:00 Mon', '2027-02-28T09:00 Sun', '2027-05-30T09:00 Sun']);
  });

  it('keep a daily 09:00 at 09:00 local across both DST changes in New York and London', () => {
    for (const [zone, spring, autumn] of [
      [NEW_YORK, '2026-03-07T09:00', '2026-10-31T09:00'],
      [LONDON, '2026-03-28T09:00', '2026-10-24T09:00'],
    ] as const) {
      for (const start of [spring, autumn]) {
        const series: Series = { anchor: at(start, zone), type: 'd', zone };
        const times = [0, 1, 2].map((n) => occurrence(series, n)!);
        expect(times.map((time) => local(time, zone).slice(11, 16))).toEqual(['09:00', '09:00', '09:00']);
        // The change itself falls in the first night: that day is 23 or 25 hours long.
        expect(Math.abs(times[1]! - times[0]! - 86_400_000)).toBe(3_600_000);
      }
    }
  });

  it('step weeks and fortnights by the calendar', () => {
    const weekly: Series = { anchor: at('2026-03-02T18:00', NEW_YORK), type: 'w', zone: NEW_YORK };
    expect(occurrences(weekly, 3)).toEqual(['2026-03-02T18:00 Mon', '2026-03-09T18:00 Mon', '2026-03-16T18:00 Mon']);
    const fortnightly: Series = { ...weekly, type: 'b' };
    expect(occurrences(fortnightly, 2)[1]).toBe('2026-03-16T18:00 Mon');
  });

  it('complete finds the first occurrence later than a given time, skipping missed ones', () => {
    const series: Series = { anchor: at('2026-01-31T09:00', LONDON), type: 'm', zone: LONDON };
    const next = nextOccurrence(series, 0, at('2026-06-15T12:00', LONDON))!;
    expect(next.index).toBe(5);
    expect(local(next.time, LONDON)).toBe('2026-06-30T09:00 Tue');
    expect(nextOccurrence(series, 0, occurrence(series, 0)!)).toEqual({ index: 1, time: occurrence(series, 1) });
    // Ten years of a daily task missed: the jump lands on tomorrow, not one step at a time.
    const daily: Series = { anchor: at('2016-01-01T07:00', NEW_YORK), type: 'd', zone: NEW_YORK };
    expect(local(nextOccurrence(daily, 0, at('2026-07-04T08:00', NEW_YORK))!.time, NEW_YORK)).toBe('2026-07-05T07:00 Sun');
  });
});

describe('notices', () => {
  const rules = (overrides: Partial<NoticeRules> = {}): NoticeRules => ({
    zone: NEW_YORK,
    overdueNotice: true,
    noticeHours: [],
    noticeInWorkday: false,
    ...overrides,
  });

  it('the first goes at the due time, moved to Monday for a workday task due at the weekend', () => {
    const saturday = at('2026-03-07T09:30', NEW_YORK);
    expect(firstNotice(saturday, rules())).toBe(saturday);
    // Monday is after the spring-forward: still 09:30 local.
    expect(local(firstNotice(saturday, rules({ noticeInWorkday: true }))!, NEW_YORK)).toBe('2026-03-09T09:30 Mon');
  });

  it('repeats at the next notice hour, on the hour, local time', () => {
    const sent = at('2026-03-04T09:30', NEW_YORK);
    const hours = rules({ noticeHours: [8, 13, 17] });
    expect(local(repeatNotice(sent, sent, hours)!, NEW_YORK)).toBe('2026-03-04T13:00 Wed');
    expect(local(repeatNotice(at('2026-03-04T17:00', NEW_YORK), sent, hours)!, NEW_YORK)).toBe('2026-03-05T08:00 Thu');
  });

  it('skips weekends for workday tasks, across the DST change in London', () => {
    const friday = at('2026-03-27T17:00', LONDON);
    const next = repeatNotice(friday, friday, rules({ zone: LONDON, noticeHours: [9, 17], noticeInWorkday: true }));
    expect(local(next!, LONDON)).toBe('2026-03-30T09:00 Mon');
    expect(new Date(next!).toISOString()).toBe('2026-03-30T08:00:00.000Z');
  });

  it('without hours repeats a day later at the same local time, across the autumn change', () => {
    const sent = at('2026-10-31T10:15', NEW_YORK);
    const next = repeatNotice(sent, sent, rules());
    expect(local(next!, NEW_YORK)).toBe('2026-11-01T10:15 Sun');
    expect(next! - sent).toBe(25 * 3_600_000);
    expect(local(repeatNotice(at('2026-10-30T10:15', NEW_YORK), sent, rules({ noticeInWorkday: true }))!, NEW_YORK)).toBe(
      '2026-11-02T10:15 Mon',
    );
  });

  it('an hour skipped by spring-forward comes at the hour after', () => {
    const sent = at('2026-03-08T01:00', NEW_YORK);
    expect(local(repeatNotice(sent, sent, rules({ noticeHours: [2] }))!, NEW_YORK)).toBe('2026-03-08T03:00 Sun');
  });

  it('stops without overdue notices', () => {
    const sent = at('2026-03-04T09:30', NEW_YORK);
    expect(repeatNotice(sent, sent, rules({ overdueNotice: false, noticeHours: [10] }))).toBeNull();
  });

  it('after a long downtime goes on from now, not from every missed slot', () => {
    const sent = at('2026-03-02T08:00', NEW_YORK);
    const now = at('2026-03-05T14:20', NEW_YORK);
    expect(local(repeatNotice(sent, now, rules({ noticeHours: [8, 13, 17] }))!, NEW_YORK)).toBe('2026-03-05T17:00 Thu');
    expect(local(repeatNotice(sent, now, rules())!, NEW_YORK)).toBe('2026-03-06T08:00 Fri');
  });
});
