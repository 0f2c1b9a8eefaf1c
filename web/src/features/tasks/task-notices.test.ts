import { describe, expect, it } from 'vitest';
import { noticeHoursNote } from './task-notices.ts';

const rules = (notice_hours: number[], overdue_notice = true, notice_in_workday = false) => ({ notice_hours, overdue_notice, notice_in_workday });

describe('the notice hours said plainly', () => {
  it('names each hour, joined as a sentence', () => {
    expect(noticeHoursNote(rules([9]))).toBe('If not done, remind me again at 9:00');
    expect(noticeHoursNote(rules([9, 17]))).toBe('If not done, remind me again at 9:00 and 17:00');
    expect(noticeHoursNote(rules([8, 12, 17]))).toBe('If not done, remind me again at 8:00, 12:00 and 17:00');
  });

  it('says what happens without hours, on workdays only, and without overdue notices', () => {
    expect(noticeHoursNote(rules([]))).toBe('If not done, remind me again a day later at the same time');
    expect(noticeHoursNote(rules([9], true, true))).toBe('If not done, remind me again at 9:00, on workdays');
    expect(noticeHoursNote(rules([9], false))).toBe('One notice at the due time, none after it (Overdue notice is off)');
  });
});
