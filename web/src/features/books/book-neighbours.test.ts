import { describe, expect, it } from 'vitest';
import { bookNeighbours, neighboursFromState, neighboursInList } from './book-neighbours.ts';

const list = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];

describe('the neighbours of a book', () => {
  it('are the books before and after it in the loaded list', () => {
    expect(neighboursInList(list, 'b')).toEqual({ prev: 'a', next: 'c' });
    expect(neighboursInList(list, 'a')).toEqual({ prev: null, next: 'b' });
    expect(neighboursInList(list, 'c')).toEqual({ prev: 'b', next: null });
  });

  it('are unknown to a list that does not hold the book', () => {
    expect(neighboursInList(list, 'z')).toBeNull();
    expect(neighboursInList([], 'a')).toBeNull();
  });

  it('come from the navigation state when the list does not hold the book', () => {
    expect(bookNeighbours(list, 'z', { prev: 'y', next: null })).toEqual({ prev: 'y', next: null });
    expect(bookNeighbours(list, 'b', { prev: 'y', next: 'z' })).toEqual({ prev: 'a', next: 'c' });
  });

  it('are none when the navigation state is missing or malformed', () => {
    expect(neighboursFromState(null)).toEqual({ prev: null, next: null });
    expect(neighboursFromState('b')).toEqual({ prev: null, next: null });
    expect(neighboursFromState({ prev: 7, next: 'c' })).toEqual({ prev: null, next: 'c' });
  });
});
