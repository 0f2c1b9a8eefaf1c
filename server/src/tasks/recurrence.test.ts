import { execFileSync } from 'node:child_process';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { anchorOnDoneDay, firstOccurrence, nextOccurrence, parseRecurrence, rruleOf, type Series } from './recurrence.ts';

// Every kind of rule, expanded here and by a second implementation — python-dateutil's rrule, with
// the same DTSTART as a zone-aware local time — over ten years across DST in three zones.

const ZONES = ['Europe/Berlin', 'America/New_York', 'Australia/Sydney'];
/** Local start times: a plain morning, and 02:30, which some DST days skip or repeat. */
const STARTS = ['2026-01-31T09:00', '2026-03-02T02:30'];
const YEARS = 10;
/** Thousands of occurrences each, and python started once per test: minutes on a busy machine, seconds on an idle one. */
const LONG = 300_000;

const CUSTOM_RULES = [
  'FREQ=DAILY',
  'FREQ=DAILY;INTERVAL=3',
  'FREQ=DAILY;BYDAY=MO,WE,FR',
  'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH',
  'FREQ=WEEKLY;BYDAY=SU',
  'FREQ=WEEKLY;INTERVAL=3',
  'FREQ=MONTHLY;BYMONTHDAY=-1',
  'FREQ=MONTHLY;BYMONTHDAY=15,-2',
  'FREQ=MONTHLY;BYDAY=2TU',
  'FREQ=MONTHLY;BYDAY=-1FR',
  'FREQ=MONTHLY;INTERVAL=2;BYDAY=1MO',
  'FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1',
  'FREQ=MONTHLY',
  'FREQ=YEARLY',
  'FREQ=YEARLY;BYMONTH=3,10;BYDAY=-1SU',
  'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29',
  'FREQ=YEARLY;INTERVAL=2;BYMONTH=4;BYDAY=1SU',
  'FREQ=WEEKLY;BYDAY=TU,SA;UNTIL=20310615T000000Z',
  'FREQ=MONTHLY;BYDAY=2TU;COUNT=20',
  'FREQ=DAILY;INTERVAL=2;COUNT=100',
];

type Case = { zone: string; start: string; rule: string; end: string };

const PYTHON = `
import json, sys
from datetime import datetime, timezone
from zoneinfo import ZoneInfo
from dateutil.rrule import rrulestr
out = []
for case in json.load(sys.stdin):
    zone = ZoneInfo(case['zone'])
    start = datetime.fromisoformat(case['start']).replace(tzinfo=zone)
    end = datetime.fromisoformat(case['end']).replace(tzinfo=zone)
    rule = rrulestr(case['rule'], dtstart=start)
    out.append([d.astimezone(timezone.utc).isoformat(timespec='milliseconds').replace('+00:00', 'Z') for d in rule.between(start, end, inc=True)])
print(json.dumps(out))
`;

/** dateutil's occurrences for each case, as UTC ISO times. */
function dateutil(cases: Case[]): string[][] {
  return JSON.parse(execFileSync('python3', ['-c', PYTHON], { input: JSON.stringify(cases), maxBuffer: 64 * 1024 * 1024 }).toString()) as string[][];
}

const at = (local: string, zone: string) => DateTime.fromISO(local, { zone }).toMillis();
const iso = (ms: number) => new Date(ms).toISOString();

/** Ours: the first occurrence, then each next one as Complete would move to it, until `end`. */
function expand(series: Series, end: number): string[] {
  const times: string[] = [];
  let current = firstOccurrence(series);
  let index = 0;
  while (current !== null && current <= end) {
    times.push(iso(current));
    const next = nextOccurrence(series, index, current);
    current = next?.time ?? null;
    index = next?.index ?? index;
  }
  return times;
}

const casesOf = (rules: (start: string, zone: string) => string[]): Case[] =>
  ZONES.flatMap((zone) =>
    STARTS.flatMap((start) => rules(start, zone).map((rule) => ({ zone, start, rule, end: DateTime.fromISO(start).plus({ years: YEARS }).toISO({ includeOffset: false })! }))),
  );

function seriesOf({ zone, start, rule }: Case): Series {
  const anchor = at(start, zone);
  const parsed = parseRecurrence(rule, 'due', anchor, zone);
  return { anchor, type: parsed.schedule_type, rrule: parsed.rrule, zone };
}

describe('recurrence against python-dateutil, ten years across DST in three zones', () => {
  it('agrees on every kind of custom rule: daily, weekly by day, monthly by day of month and nth weekday, yearly, intervals, UNTIL, COUNT', () => {
    const cases = casesOf(() => CUSTOM_RULES);
    const expected = dateutil(cases);
    cases.forEach((c, n) => {
      const ours = expand(seriesOf(c), at(c.end, c.zone));
      expect(ours.length, `${c.rule} from ${c.start} in ${c.zone}`).toBeGreaterThan(0);
      expect(ours, `${c.rule} from ${c.start} in ${c.zone}`).toEqual(expected[n]);
    });
  }, LONG);

  it('agrees on the six codes, each as the rule it stands for (month ends clamp: Jan 31, Feb 28, Mar 31)', () => {
    const codes = ['d', 'w', 'b', 'm', 'q', 'y'] as const;
    const starts = ['2026-01-31T09:00', '2028-02-29T02:30', '2026-08-30T07:15'];
    const cases = ZONES.flatMap((zone) =>
      starts.flatMap((start) =>
        codes.map((type) => {
          const rule = rruleOf({ schedule_type: type, rrule: null, anchor_time: at(start, zone) }, zone)!;
          return { zone, start, rule, end: DateTime.fromISO(start).plus({ years: YEARS }).toISO({ includeOffset: false })!, type };
        }),
      ),
    );
    const expected = dateutil(cases);
    cases.forEach((c, n) => {
      const ours = expand({ anchor: at(c.start, c.zone), type: c.type, rrule: null, zone: c.zone }, at(c.end, c.zone));
      expect(ours, `${c.type} (${c.rule}) from ${c.start} in ${c.zone}`).toEqual(expected[n]);
    });
  }, LONG);

  it('agrees on "again N days after it was done": the rule started on the day it was done, at its clock time', () => {
    const rules = ['FREQ=DAILY;INTERVAL=3', 'FREQ=WEEKLY;BYDAY=MO,TH', 'FREQ=MONTHLY;BYMONTHDAY=-1'];
    // Done late in the evening of DST days and ordinary ones, in each zone.
    const doneDays = ['2026-03-29T22:10', '2026-10-04T21:00', '2026-11-01T23:30', '2027-06-15T18:45'];
    const cases = ZONES.flatMap((zone) =>
      doneDays.flatMap((done) =>
        rules.map((rule) => {
          const anchor = at('2026-01-05T02:30', zone);
          const restart = anchorOnDoneDay({ anchor, type: 'c', rrule: rule, zone }, at(done, zone));
          const start = DateTime.fromMillis(restart, { zone }).toISO({ includeOffset: false })!;
          return { zone, start, rule, end: DateTime.fromISO(start).plus({ months: 2 }).toISO({ includeOffset: false })!, restart, done };
        }),
      ),
    );
    const expected = dateutil(cases);
    cases.forEach((c, n) => {
      const next = nextOccurrence({ anchor: c.restart, type: 'c', rrule: c.rule, zone: c.zone }, 0, Math.max(c.restart, at(c.done, c.zone)));
      const afterDone = expected[n]!.find((time) => Date.parse(time) > at(c.done, c.zone));
      expect(next && iso(next.time), `${c.rule} done ${c.done} in ${c.zone}`).toBe(afterDone);
    });
  }, LONG);
});

describe('bounded cost', () => {
  it('gives the occurrence after a date two centuries on, as one a day on would (no stepping through the years between)', () => {
    const zone = 'Europe/Berlin';
    const anchor = at('1900-01-01T09:00', zone);
    const series: Series = { anchor, type: 'c', rrule: 'FREQ=MONTHLY;BYDAY=2TU', zone };
    const next = nextOccurrence(series, 0, at('2199-12-31T00:00', zone));
    expect(next && DateTime.fromMillis(next.time, { zone }).toISO()).toBe('2200-01-14T09:00:00.000+01:00');
    const weekly: Series = { anchor, type: 'c', rrule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH', zone };
    const [a, b] = [nextOccurrence(weekly, 0, at('2150-06-01T00:00', zone)), dateutil([{ zone, start: '1900-01-01T09:00', rule: weekly.rrule!, end: '2150-06-30T00:00' }])[0]!];
    expect(a && iso(a.time)).toBe(b.find((time) => Date.parse(time) > at('2150-06-01T00:00', zone)));
  }, LONG);

  it('has no next occurrence for a custom rule anchored or asked about where the library cannot reach, and says so at once', () => {
    const times = [Date.parse('+275760-09-12T00:00:00Z'), Date.parse('-271821-04-21T00:00:00Z'), Date.parse('+010000-01-01T00:00:00Z'), Date.parse('0050-01-01T00:00:00Z')];
    for (const far of times) {
      for (const rrule of ['FREQ=DAILY', 'FREQ=MONTHLY;BYDAY=2TU;COUNT=5']) {
        const series: Series = { anchor: far, type: 'c', rrule, zone: 'Pacific/Auckland' };
        expect(nextOccurrence(series, 0, far)).toBeNull();
        expect(nextOccurrence(series, 0, Date.parse('2026-01-01T00:00:00Z'))).toBeNull();
        expect(nextOccurrence({ ...series, anchor: Date.parse('2026-01-01T00:00:00Z') }, 0, far)).toBeNull();
      }
    }
  });
});

describe('rules refused with a reason', () => {
  const anchor = at('2026-03-02T09:00', 'Europe/Berlin');
  it.each([
    ['FREQ=HOURLY', /FREQ must be DAILY, WEEKLY, MONTHLY or YEARLY/],
    ['FREQ=MINUTELY;INTERVAL=5', /FREQ must be/],
    ['FREQ=SECONDLY', /FREQ must be/],
    ['INTERVAL=2', /needs FREQ/],
    ['FREQ=WEEKLY;BYDAY=XX', /BYDAY must be weekdays/],
    ['FREQ=WEEKLY;BYDAY=2MO', /without a number/],
    ['FREQ=DAILY;BYMONTHDAY=3', /FREQ=DAILY may not use/],
    ['FREQ=MONTHLY;BYHOUR=9', /part BYHOUR is not supported/],
    ['FREQ=MONTHLY;COUNT=5000', /COUNT must be a whole number from 1 to 1000/],
    ['FREQ=MONTHLY;INTERVAL=0', /INTERVAL must be/],
    ['FREQ=MONTHLY;COUNT=3;UNTIL=20300101T000000Z', /COUNT or UNTIL/],
    ['FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30', /never occurs/],
    ['FREQ=MONTHLY;UNTIL=20200101T000000Z', /no occurrence after the first due time/],
    ['FREQ=MONTHLY;UNTIL=tomorrow', /UNTIL must be a date/],
    ['FREQ=DAILY;FREQ=WEEKLY', /names FREQ twice/],
    ['garbage', /parts like/],
  ])('%s', (rule, reason) => {
    expect(() => parseRecurrence(rule, 'due', anchor, 'Europe/Berlin')).toThrow(reason);
  });

  it('refuses COUNT with repeating from when it was done', () => {
    expect(() => parseRecurrence('FREQ=DAILY;COUNT=3', 'done', anchor, 'Europe/Berlin')).toThrow(/COUNT/);
  });

  it('reads a six codes rule as its code, and anything else as custom', () => {
    const zone = 'Europe/Berlin';
    expect(parseRecurrence('RRULE:freq=weekly;interval=2', 'due', anchor, zone)).toEqual({ schedule_type: 'b', rrule: null });
    expect(parseRecurrence('FREQ=MONTHLY;BYMONTHDAY=2', 'due', anchor, zone)).toEqual({ schedule_type: 'm', rrule: null });
    const end = at('2026-01-31T09:00', zone);
    expect(parseRecurrence('FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1', 'due', end, zone)).toEqual({ schedule_type: 'm', rrule: null });
    expect(parseRecurrence('FREQ=MONTHLY', 'due', end, zone)).toEqual({ schedule_type: 'c', rrule: 'FREQ=MONTHLY' });
  });
});
