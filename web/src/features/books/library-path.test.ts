import { describe, expect, it } from 'vitest';
import { pathBelowLibrary } from './library-path.ts';

describe('a path below the library folder', () => {
  it('starts after the folder and its separator', () => {
    expect(pathBelowLibrary('/home/me/Calibre Library/Victor Hugo/Les Miserables (1)/x.epub', '/home/me/Calibre Library')).toBe(
      'Victor Hugo/Les Miserables (1)/x.epub',
    );
    expect(pathBelowLibrary('C:\\Calibre Library\\Victor Hugo\\x.epub', 'C:\\Calibre Library')).toBe('Victor Hugo\\x.epub');
  });

  it('is the whole path without a folder, or outside it', () => {
    expect(pathBelowLibrary('/srv/books/x.epub', '')).toBe('/srv/books/x.epub');
    expect(pathBelowLibrary('/srv/books2/x.epub', '/srv/books')).toBe('/srv/books2/x.epub');
    expect(pathBelowLibrary('/srv/x.epub', '/srv/books')).toBe('/srv/x.epub');
    expect(pathBelowLibrary('', '/srv/books')).toBe('');
  });
});
