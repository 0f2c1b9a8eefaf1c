import { describe, expect, it } from 'vitest';
import { identifierKey } from './book-row.ts';
import { catalogueQuery, typedIdentifier } from './books.search.ts';
import { pathInLibrary } from './indexed-text.ts';
import { searchPlan } from './books.search.sqlite.ts';

describe('the part of a path below its Calibre library', () => {
  it('is the author folder, the book folder and the file, when the book folder ends with the book’s id', () => {
    expect(pathInLibrary('/home/me/Calibre Library/Victor Hugo/Les Miserables (1)/Les Miserables - Victor Hugo.epub', '1'))
      .toBe('Victor Hugo/Les Miserables (1)/Les Miserables - Victor Hugo.epub');
    expect(pathInLibrary('C:\\Users\\me\\Calibre Library\\Victor Hugo\\Les Miserables (1)\\Les Miserables.epub', '1'))
      .toBe('Victor Hugo/Les Miserables (1)/Les Miserables.epub');
  });

  it('is the whole path otherwise', () => {
    expect(pathInLibrary('Victor Hugo/Les Miserables (1)/Les Miserables.epub', '1')).toBe('Victor Hugo/Les Miserables (1)/Les Miserables.epub');
    expect(pathInLibrary('/home/me/Calibre Library/Victor Hugo/Les Miserables (1)/x.epub', '11')).toBe(
      '/home/me/Calibre Library/Victor Hugo/Les Miserables (1)/x.epub',
    );
    expect(pathInLibrary('/srv/books/novel.epub', '1')).toBe('/srv/books/novel.epub');
    expect(pathInLibrary('epub', '1')).toBe('epub');
  });
});

describe('identifiers as matched', () => {
  it('keep letters and digits of the value, folded, in lower case', () => {
    expect(identifierKey('isbn:978-0-14-044913-6')).toBe('9780140449136');
    expect(identifierKey('mobi-asin:B00X YZ')).toBe('b00xyz');
    expect(identifierKey('')).toBe('');
    expect(typedIdentifier('978-0-14,044913 6')).toBe('9780140449136');
    expect(typedIdentifier('9'.repeat(65))).toBe('');
  });

  it('are asked for only when there are words to search', () => {
    const query = { fields: ['title' as const], format: '' as const, from: 0, size: 10 };
    expect(catalogueQuery({ ...query, keys: '978-0-14-044913-6' }).identifier).toBe('9780140449136');
    expect(catalogueQuery({ ...query, keys: ' , ' }).identifier).toBe('');
  });
});

describe('a SQLite search plan', () => {
  const query = catalogueQuery({ keys: 'war peace', fields: ['title'], format: '', from: 0, size: 10 });

  it('searches the words alone until the probe finds the keys as an identifier', () => {
    const plan = searchPlan(query);
    expect(plan.identifierProbe?.sql).toContain('identifier_key');
    for (const statement of [plan.count, plan.ranked, plan.unranked]) expect(statement.sql).not.toContain('identifier_key');
  });

  it('adds the identifier’s books once the probe has found one', () => {
    const plan = searchPlan(query, { withIdentifier: true });
    expect(plan.identifierProbe).toBeUndefined();
    for (const statement of [plan.count, plan.ranked, plan.unranked]) expect(statement.sql).toContain('identifier_key');
  });
});
