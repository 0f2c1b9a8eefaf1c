import { describe, expect, it } from 'vitest';
import { ruleWords } from './rule-words.ts';

describe('a repeat rule in words', () => {
  it.each([
    ['FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH', 'due', 'Every 2 weeks on Monday and Thursday'],
    ['FREQ=MONTHLY;BYDAY=2TU', 'due', 'On the 2nd Tuesday of every month'],
    ['FREQ=MONTHLY;BYMONTHDAY=-1', 'due', 'On the last day of every month'],
    ['FREQ=DAILY;INTERVAL=3', 'done', 'Every 3 days after it is done'],
    ['FREQ=DAILY', 'due', 'Every day'],
    ['FREQ=WEEKLY;BYDAY=MO,WE,FR;UNTIL=20271231T225959Z', 'due', 'Every week on Monday, Wednesday and Friday, until 31 December 2027'],
    ['FREQ=MONTHLY;BYDAY=-1FR;COUNT=10', 'due', 'On the last Friday of every month, 10 times'],
    ['FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=15', 'due', 'On the 15th of every 3 months'],
    ['FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1', 'due', 'On the last day of every month'],
    ['FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=28,29,30;BYSETPOS=-1', 'due', 'On the 30th (or the last day of a shorter month) of every 3 months'],
    ['FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU', 'due', 'Every year on the last Sunday of March'],
    ['FREQ=YEARLY', 'due', 'Every year'],
    ['FREQ=YEARLY;BYYEARDAY=100', 'due', 'By the rule FREQ=YEARLY;BYYEARDAY=100'],
    ['FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1', 'due', 'By the rule FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1'],
  ] as const)('%s (from %s): %s', (rule, from, words) => {
    expect(ruleWords(rule, from)).toBe(words);
  });

  it('says the end of a rule as the local day it falls on', () => {
    expect(ruleWords('FREQ=DAILY;UNTIL=20280101T045959Z', 'due', 'America/New_York')).toBe('Every day, until 31 December 2027');
  });

  it('says a one-off task does not repeat', () => {
    expect(ruleWords(null)).toBe('Does not repeat');
  });
});
