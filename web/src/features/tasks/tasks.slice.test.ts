import { describe, expect, it } from 'vitest';
import { MORE_RESULTS_AFTER_LIMIT, NO_MORE_RESULTS, type TaskPage } from '../../../../contract/tasks.ts';
import { aTask } from './tasks.test-data.ts';
import { errorReported, taskDeleted, taskSlice, tasksAppended, tasksReceived, taskUpdated } from './tasks.slice.ts';

const page = (ids: string[], more: boolean): TaskPage => ({
  tasks: ids.map((id) => aTask(id)),
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
    state = reduce(state, taskUpdated(aTask('a', { name: 'Renamed' })));
    expect(state.curTask?.name).toBe('Renamed');
    expect(state.tasks[0]?.name).toBe('Renamed');
    state = reduce(state, taskUpdated(aTask('b', { active: false })));
    expect(state.tasks.map((t) => t.id)).toEqual(['a']);
    state = reduce(state, taskDeleted());
    expect(state.curTask).toBeNull();
  });
});
