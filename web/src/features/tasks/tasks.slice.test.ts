import { describe, expect, it } from 'vitest';
import { MORE_RESULTS_AFTER_LIMIT, NO_MORE_RESULTS, type Task, type TaskPage } from '../../../../contract/tasks.ts';
import { errorReported, taskDeleted, taskSlice, tasksAppended, tasksReceived, taskUpdated } from './tasks.slice.ts';

const task = (id: string, fields: Partial<Task> = {}): Task => ({
  id,
  name: `Task ${id}`,
  active: true,
  create_time: '2026-01-05T12:00:00.000Z',
  last_updated: '2026-01-05T12:00:00.000Z',
  first_schedule_time: '2026-01-06T09:00:00.000Z',
  schedule_end_time: null,
  schedule_type: 'd',
  schedule_time: '2026-01-06T09:00:00.000Z',
  next_notice_time: '2026-01-06T09:00:00.000Z',
  emails: [],
  overdue_notice: true,
  notice_hours: [],
  notice_in_workday: false,
  comment: '',
  notice_error: null,
  ...fields,
});
const page = (ids: string[], more: boolean): TaskPage => ({
  tasks: ids.map((id) => task(id)),
  cursor: more ? `after-${ids.at(-1)}` : NO_MORE_RESULTS,
  queryInfo: { endCursor: `after-${ids.at(-1)}`, moreResults: more ? MORE_RESULTS_AFTER_LIMIT : NO_MORE_RESULTS },
});
const reduce = taskSlice.reducer;

describe('the task slice', () => {
  it('replaces the list with the first page and appends later ones; the cursor follows queryInfo (spec §4)', () => {
    let state = reduce(undefined, errorReported('old failure'));
    state = reduce(state, tasksReceived(page(['a', 'b'], true)));
    expect(state.tasks.map((t) => t.id)).toEqual(['a', 'b']);
    expect(state.pageCursor).toBe('after-b');
    expect(state.operationError).toBeNull();
    state = reduce(state, tasksAppended(page(['c'], false)));
    expect(state.tasks.map((t) => t.id)).toEqual(['a', 'b', 'c']);
    expect(state.pageCursor).toBe(NO_MORE_RESULTS);
    state = reduce(state, tasksReceived(page(['z'], false)));
    expect(state.tasks.map((t) => t.id)).toEqual(['z']);
  });

  it('an update becomes the current task and its row; a task no longer active leaves the list', () => {
    let state = reduce(undefined, tasksReceived(page(['a', 'b'], false)));
    state = reduce(state, taskUpdated(task('a', { name: 'Renamed' })));
    expect(state.curTask?.name).toBe('Renamed');
    expect(state.tasks[0]?.name).toBe('Renamed');
    state = reduce(state, taskUpdated(task('b', { active: false })));
    expect(state.tasks.map((t) => t.id)).toEqual(['a']);
    state = reduce(state, taskDeleted());
    expect(state.curTask).toBeNull();
  });
});
