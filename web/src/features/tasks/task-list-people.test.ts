import { describe, expect, it } from 'vitest';
import type { TaskList } from '../../../../contract/task-lists.ts';
import { personName, turnLabel } from './task-list-people.ts';

const household: TaskList = {
  id: 'list-1',
  name: 'Household',
  owned: false,
  owner_id: 'olive',
  created: '2026-11-29T00:00:00.000Z',
  people: [
    { id: 'olive', display_name: 'Olive Owner', email: null },
    { id: 'sam', display_name: 'Sam Member', email: 'sam@example.org' },
  ],
};
const task = (turn: string | null) => ({ list_id: 'list-1', turn_id: turn });

describe('whose turn a task of a household list is', () => {
  it('names the person of the list, or the caller as "Your turn"', () => {
    expect(turnLabel(task('olive'), [household], 'sam')).toBe("Olive Owner's turn");
    expect(turnLabel(task('sam'), [household], 'sam')).toBe('Your turn');
    expect(turnLabel(task(null), [household], 'sam')).toBeNull();
  });

  it('says someone left only when the loaded list no longer has them', () => {
    expect(turnLabel(task('gone'), [household], 'sam')).toBe("someone who left the list's turn");
  });

  it('names no one else before the lists are loaded, where it said "someone who left the list"', () => {
    expect(turnLabel(task('olive'), null, 'sam')).toBeNull();
    expect(turnLabel(task('olive'), [], 'sam')).toBeNull();
    expect(turnLabel(task('sam'), null, 'sam')).toBe('Your turn');
    expect(personName(undefined, 'olive', 'sam')).toBe('…');
  });
});
