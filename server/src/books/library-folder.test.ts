import { describe, expect, it } from 'vitest';
import { commonFolder, fileLibraryFolder, libraryFolderTracker } from './library-folder.ts';

const HUGO = '/home/me/Calibre Library/Victor Hugo/Les Miserables (1)/Les Miserables - Victor Hugo.epub';

describe('the library a file lies in', () => {
  it('is two folders above the book’s own folder when that folder ends with the book’s id', () => {
    expect(fileLibraryFolder(HUGO, '1')).toBe('/home/me/Calibre Library');
    expect(fileLibraryFolder('C:\\Users\\me\\Calibre Library\\Victor Hugo\\Les Miserables (1)\\x.epub', '1')).toBe(
      'C:\\Users\\me\\Calibre Library',
    );
    // metadata.db's paths start at the library already.
    expect(fileLibraryFolder('Victor Hugo/Les Miserables (1)/x.epub', '1')).toBe('');
  });

  it('is the file’s own folder otherwise, and none for a bare name', () => {
    expect(fileLibraryFolder(HUGO, '11')).toBe('/home/me/Calibre Library/Victor Hugo/Les Miserables (1)');
    expect(fileLibraryFolder('/srv/books/novel.epub', '1')).toBe('/srv/books');
    expect(fileLibraryFolder('epub', '1')).toBe('');
  });
});

describe('the folder two paths share', () => {
  it('is made of whole folders', () => {
    expect(commonFolder('/lib/a/b', '/lib/a/c')).toBe('/lib/a');
    expect(commonFolder('/lib/a', '/lib/ab')).toBe('/lib');
    expect(commonFolder('/lib/a', '/lib/a/b')).toBe('/lib/a');
    expect(commonFolder('/lib', '/lib')).toBe('/lib');
    expect(commonFolder('C:\\lib\\a', 'C:\\lib\\b')).toBe('C:\\lib');
    expect(commonFolder('books/a', 'books/b')).toBe('books');
  });

  it('is none when they share only the root, or nothing', () => {
    expect(commonFolder('/home/a', '/srv/b')).toBe('');
    expect(commonFolder('a/b', 'c/d')).toBe('');
    expect(commonFolder('', '/lib')).toBe('');
  });
});

describe('the library folder of a catalogue', () => {
  const book = (id: string, ...formats: string[]) => ({ id, path: formats[0] ?? '', formats });

  it('is the Calibre library even when every book has one author', () => {
    const library = libraryFolderTracker(undefined);
    library.add(book('1', HUGO, HUGO.replace('.epub', '.pdf')));
    library.add(book('2', '/home/me/Calibre Library/Victor Hugo/Notre-Dame de Paris (2)/Notre-Dame de Paris.epub'));
    expect(library.folder).toBe('/home/me/Calibre Library');
  });

  it('ignores books without files, and is undefined until a book has one', () => {
    const library = libraryFolderTracker(undefined);
    library.add(book('15'));
    expect(library.folder).toBeUndefined();
    library.add(book('3', '/srv/books/a/novel.epub'));
    library.add(book('4', '/srv/books/b/poems.pdf'));
    expect(library.folder).toBe('/srv/books');
  });

  it('only gets shorter from where it starts', () => {
    const library = libraryFolderTracker('/srv/books/a');
    library.add(book('4', '/srv/books/b/poems.pdf'));
    expect(library.folder).toBe('/srv/books');
    library.add(book('5', 'epub'));
    expect(library.folder).toBe('');
    library.add(book('6', '/srv/books/c/x.epub'));
    expect(library.folder).toBe('');
  });
});
