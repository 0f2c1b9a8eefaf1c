import { describe, expect, it } from 'vitest';
import { taskListHeading } from './task-headings.ts';

describe('the task list heading', () => {
  it('counts tasks in the plural, one in the singular, and says when there is none', () => {
    expect(taskListHeading(0, 'active')).toBe('No task found');
    expect(taskListHeading(1, 'active')).toBe('Found 1 active task');
    expect(taskListHeading(5, 'active')).toBe('Found 5 active tasks');
    expect(taskListHeading(1, 'done')).toBe('Found 1 done task');
    expect(taskListHeading(2, 'done')).toBe('Found 2 done tasks');
    expect(taskListHeading(1, 'all')).toBe('Found 1 task');
    expect(taskListHeading(3, 'all')).toBe('Found 3 tasks');
  });
});
