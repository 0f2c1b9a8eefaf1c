import { describe, expect, it } from 'vitest';
import { screenChanged } from '../../lib/screen-changed.ts';
import { MORE_RESULTS_AFTER_LIMIT, NO_MORE_RESULTS, type TaskPage } from '../../../../contract/tasks.ts';
import { aTask } from './tasks.test-data.ts';
import { errorReported, statusChosen, taskDeleted, taskRemoved, taskSlice, tasksAppended, tasksReceived, taskUpdated } from './tasks.slice.ts';

const page = (ids: string[], more: boolean): TaskPage => ({
  tasks: ids.map((id) => aTask(id)),
  cursor: more ? `after-${ids.at(-1)}` : NO_MORE_RESULTS,
  queryInfo: { endCursor: `after-${ids.at(-1)}`, moreResults: more ? MORE_RESULTS_AFTER_LIMIT : NO_MORE_RESULTS },
});
const reduce = taskSlice.reducer;

describe('the task slice', () => {
  it('replaces the list with the first page and appends later ones; the cursor follows queryInfo (docs/behaviour/tasks-and-notices.md)', () => {
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

  it('empties the list when another status is chosen; a task keeps its row only while it fits the status', () => {
    let state = reduce(undefined, tasksReceived(page(['a', 'b'], true)));
    state = reduce(state, statusChosen('done'));
    expect(state).toMatchObject({ status: 'done', tasks: [], pageCursor: null });
    state = reduce(state, tasksReceived(page(['x', 'y'], false)));
    state = reduce(state, taskUpdated(aTask('x', { active: false, name: 'Still done' })));
    expect(state.tasks.map((t) => t.name)).toEqual(['Still done', 'Task y']);
    state = reduce(state, statusChosen('all'));
    state = reduce(state, tasksReceived(page(['p', 'q'], false)));
    state = reduce(state, taskUpdated(aTask('p', { active: false })));
    expect(state.tasks.map((t) => t.id)).toEqual(['p', 'q']);
  });

  it('drops a deleted task from the list and from the current task', () => {
    let state = reduce(undefined, tasksReceived(page(['a', 'b'], false)));
    state = reduce(state, taskUpdated(aTask('a')));
    state = reduce(state, taskRemoved('a'));
    expect(state.tasks.map((t) => t.id)).toEqual(['b']);
    expect(state.curTask).toBeNull();
  });
});

describe('the task operation error and the screen', () => {
  it('is forgotten when the screen changes, and nothing else is', () => {
    const failed = reduce(undefined, errorReported('It failed'));
    expect(failed.operationError).toMatch(/It failed$/);
    expect(reduce(failed, screenChanged())).toEqual({ ...failed, operationError: null });
  });
});
