import { describe, expect, it } from 'vitest';
import {
  bookSearchPath,
  formatSetting,
  joinFields,
  parseEntries,
  searchKeys,
  searchText,
  type BookSearchSettings,
} from './book-search-settings.ts';

describe('the search keys (docs/behaviour/books.md)', () => {
  it('joins the words with commas', () => {
    expect(searchKeys('les miserables')).toBe('les,miserables');
  });

  it("replaces '#' by its URL-encoded form", () => {
    expect(searchKeys('c# #1')).toBe('c%23,%231');
  });

  it('takes commas and colons as spaces, and collapses whitespace runs', () => {
    expect(searchKeys('  tolkien,lord:of \t the\n\nrings ,, ')).toBe('tolkien,lord,of,the,rings');
  });

  it('is empty for blank text', () => {
    expect(searchKeys(' \t, : ')).toBe('');
  });

  it('reads back as the words, for the search box', () => {
    expect(searchText(searchKeys('c#  in depth, 4th:edition'))).toBe('c# in depth 4th edition');
    expect(searchText('')).toBe('');
  });
});

describe('the other settings (docs/behaviour/books.md)', () => {
  it('trims the fields and joins them with commas', () => {
    expect(joinFields([' title', 'author ', '', 'comment'])).toBe('title,author,comment');
    expect(joinFields([])).toBe('');
  });

  it("stores the format 'all' as empty, any other as chosen", () => {
    expect(formatSetting('all')).toBe('');
    expect(formatSetting('epub')).toBe('epub');
  });

  it('parses the entries as an integer', () => {
    expect(parseEntries('25')).toBe(25);
    expect(parseEntries(' 7 ')).toBe(7);
    expect(parseEntries('12.9')).toBe(12);
    expect(parseEntries('30 books')).toBe(30);
  });

  it('takes no page size from entries that are not a positive integer', () => {
    expect(parseEntries('ten')).toBeNull();
    expect(parseEntries('')).toBeNull();
    expect(parseEntries('0')).toBeNull();
    expect(parseEntries('-5')).toBeNull();
  });

  it('caps the entries at the largest page the API serves', () => {
    expect(parseEntries('500')).toBe(100);
  });
});

describe('the search request', () => {
  const settings: BookSearchSettings = {
    keys: searchKeys('c# & c++ 100%'),
    fields: 'title,author',
    size: 20,
    format: 'epub',
    comment: true,
    sort: 'updated',
  };

  it('carries every setting and the offset as query parameters', () => {
    const path = bookSearchPath(settings, 40);
    const [pathname, query] = path.split('?');

    expect(pathname).toBe('/api/books');
    expect(Object.fromEntries(new URLSearchParams(query))).toEqual({
      keys: 'c#,&,c++,100%',
      fields: 'title,author',
      from: '40',
      size: '20',
      format: 'epub',
      includeComment: 'true',
    });
  });

  it("sends '#' encoded once, so that the server reads it as '#'", () => {
    expect(bookSearchPath(settings, 0)).toContain('keys=c%23%2C%26%2Cc%2B%2B%2C100%25&');
  });

  it('sends empty keys and format as empty, and the comment flag as false', () => {
    const path = bookSearchPath({ ...settings, keys: '', format: '', comment: false }, 0);
    const query = new URLSearchParams(path.split('?')[1]);

    expect([query.get('keys'), query.get('format'), query.get('includeComment')]).toEqual(['', '', 'false']);
  });

  it('sorts a listing as asked, never a search with words, which is ranked', () => {
    const sortOf = (over: Partial<BookSearchSettings>) => new URLSearchParams(bookSearchPath({ ...settings, ...over }, 0).split('?')[1]).get('sort');
    expect(sortOf({ keys: '', sort: 'title' })).toBe('title');
    expect(sortOf({ keys: '', sort: 'updated' })).toBeNull();
    expect(sortOf({ sort: 'title' })).toBeNull();
  });
});
