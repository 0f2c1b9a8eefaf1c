import { describe, expect, it } from 'vitest';
import { turnMemberOf, turnOf } from './lists.turn.ts';

const task = (rotation: string[], turn: number, assignee: string | null = null, list: string | null = 'home') => ({
  list_id: list,
  assignee_id: assignee,
  rotation: JSON.stringify(rotation),
  rotation_turn: turn,
});

describe('whose turn it is', () => {
  it('goes round the rotation one Complete at a time, and before the assignee', () => {
    const people = ['a', 'b', 'c'];
    expect([0, 1, 2, 3, 4].map((turn) => turnOf(task(['a', 'b'], turn, 'c'), people))).toEqual(['a', 'b', 'a', 'b', 'a']);
    expect(turnOf(task([], 7, 'c'), people)).toBe('c');
    expect(turnOf(task([], 0), people)).toBeNull();
  });

  it('skips people who left the list, and falls back to the assignee while no one of the rotation is left', () => {
    expect([0, 1, 2].map((turn) => turnOf(task(['a', 'b', 'c'], turn), ['a', 'c']))).toEqual(['a', 'c', 'a']);
    expect(turnOf(task(['b'], 0, 'a'), ['a'])).toBe('a');
    expect(turnOf(task(['b'], 0, 'b'), ['a'])).toBeNull();
  });

  it('is nobody\'s for a task in no list, and names the person with their address for the notice', () => {
    expect(turnOf(task(['a'], 0, 'a', null), ['a'])).toBeNull();
    const people = [
      { id: 'a', email: 'a@example.org' },
      { id: 'b', email: 'b@example.org' },
    ];
    expect(turnMemberOf({ ...task(['a', 'b'], 1), list_people: people })).toEqual({ id: 'b', email: 'b@example.org' });
    expect(turnMemberOf({ ...task([], 0), list_people: people })).toBeNull();
  });
});
