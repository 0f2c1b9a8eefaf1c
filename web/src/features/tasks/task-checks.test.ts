import { describe, expect, it } from 'vitest';
import { parseEmail, parseNoticeHour, taskTimeProblem, taskValueProblem } from './task-checks.ts';
import { aTask } from './tasks.test-data.ts';

describe('the checks made before a task field is sent', () => {
  it('says what is wrong with the field’s label, as the server does', () => {
    expect(taskValueProblem('name', '  ')).toBe('Name is required');
    expect(taskValueProblem('name', 'Plants')).toBeNull();
    expect(taskValueProblem('comment', 'c'.repeat(10_001))).toBe('Comment must be at most 10000 characters');
    expect(taskValueProblem('schedule_time', '2201-01-01T00:00:00Z')).toBe('Due time must be between 1900-01-01 and 2200-12-31');
  });

  it('takes whole hours from 0 to 23 and refuses anything else with the reason', () => {
    expect(parseNoticeHour('9')).toEqual({ item: 9 });
    expect(parseNoticeHour('0')).toEqual({ item: 0 });
    for (const text of ['24', '-1', '9.5', 'nine', '']) {
      expect(parseNoticeHour(text), text).toEqual({ problem: 'Notice hours are whole hours from 0 to 23' });
    }
  });

  it('takes e-mail addresses and refuses others with an example', () => {
    expect(parseEmail('ada@example.org')).toEqual({ item: 'ada@example.org' });
    expect(parseEmail('ada at example')).toEqual({ problem: 'Enter e-mail addresses like ada@example.org' });
  });

  it('refuses an end before the due time, a due time after the end, and a missing due time', () => {
    const task = aTask('t1', { schedule_time: '2030-03-10T13:00:00.000Z', schedule_end_time: '2030-03-20T22:00:00.000Z' });
    expect(taskTimeProblem('schedule_end_time', '2030-03-10T12:59:00Z', task)).toBe('End time must not be before the due time');
    expect(taskTimeProblem('schedule_end_time', '2030-03-10T13:00:00Z', task)).toBeNull();
    expect(taskTimeProblem('schedule_end_time', null, task)).toBeNull();
    expect(taskTimeProblem('schedule_time', '2030-03-21T00:00:00Z', task)).toBe('Due time must not be after the end time');
    expect(taskTimeProblem('schedule_time', null, task)).toBe('Due time is required');
  });
});
