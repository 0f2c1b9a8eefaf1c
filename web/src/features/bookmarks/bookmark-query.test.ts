import { describe, expect, it } from 'vitest';
import { EMPTY_QUERY, groupLabel, localToIso, querySpec } from './bookmark-query.ts';

describe('bookmark query form', () => {
  it('requires key words and splits them on whitespace', () => {
    expect(querySpec({ ...EMPTY_QUERY, keyWords: '  \t ' })).toBe('key words are required');
    expect(querySpec({ ...EMPTY_QUERY, keyWords: ' full   text\tsearch ' })).toEqual({ key_words: ['full', 'text', 'search'] });
  });

  it('sends the read-later state when one is chosen, and none for Any', () => {
    expect(querySpec({ ...EMPTY_QUERY, keyWords: 'a', state: 'unread' })).toEqual({ key_words: ['a'], state: 'unread' });
    expect(querySpec({ ...EMPTY_QUERY, keyWords: 'a', state: undefined })).toEqual({ key_words: ['a'] });
  });

  it('applies a range only once its start is set, and an end only with a start', () => {
    const start = '2026-01-05T09:30';
    expect(querySpec({ ...EMPTY_QUERY, keyWords: 'a', createEnd: '2026-02-01T00:00' })).toEqual({ key_words: ['a'] });
    expect(querySpec({ ...EMPTY_QUERY, keyWords: 'a', createStart: start })).toEqual({
      key_words: ['a'],
      create_time_range: { start: new Date(2026, 0, 5, 9, 30).toISOString() },
    });
    expect(querySpec({ ...EMPTY_QUERY, keyWords: 'a', updateStart: start, updateEnd: '2026-01-06T00:00' })).toEqual({
      key_words: ['a'],
      update_time_range: { start: new Date(2026, 0, 5, 9, 30).toISOString(), end: new Date(2026, 0, 6).toISOString() },
    });
  });

  it('refuses a range whose end comes before its start, in the server’s words', () => {
    expect(querySpec({ ...EMPTY_QUERY, keyWords: 'a', createStart: '2026-01-05T09:30', createEnd: '2026-01-05T09:29' })).toBe(
      'Created until must not be before the start',
    );
    expect(querySpec({ ...EMPTY_QUERY, keyWords: 'a', updateStart: '2026-01-05T09:30', updateEnd: '2026-01-04T00:00' })).toBe(
      'Updated until must not be before the start',
    );
    expect(querySpec({ ...EMPTY_QUERY, keyWords: 'a', createStart: '2026-01-05T09:30', createEnd: '2026-01-05T09:30' })).not.toBeTypeOf('string');
  });

  it('sends cleared multi-selects as nothing', () => {
    const spec = querySpec({ ...EMPTY_QUERY, keyWords: 'a', fields: undefined, hosts: ['example.org'], tags: undefined });
    expect(spec).toEqual({ key_words: ['a'], hosts: ['example.org'] });
  });

  it('reads incomplete local times as none', () => {
    expect(localToIso('2026-01-0')).toBeUndefined();
    expect(localToIso('')).toBeUndefined();
  });

  it('labels a group with its key’s first 15 characters and its count', () => {
    expect(groupLabel({ key: 'developer.mozilla.org', doc_count: 12 })).toBe('developer.mozil (12)');
    expect(groupLabel({ key: 'rust', doc_count: 1 })).toBe('rust (1)');
  });
});
