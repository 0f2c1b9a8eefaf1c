import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLibraryFiles } from './library.files.ts';

describe('the library’s files, from the paths the catalogue stores', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'organiser-library-files-'));
  const library = path.join(work, 'Calibre Library');
  const bookFolder = path.join(library, 'Author/Title (7)');
  fs.mkdirSync(bookFolder, { recursive: true });
  fs.writeFileSync(path.join(bookFolder, 'Title - Author.epub'), 'an epub');
  fs.writeFileSync(path.join(bookFolder, 'cover.jpg'), 'the cover');
  fs.writeFileSync(path.join(work, 'secret.pdf'), 'outside the library');
  fs.writeFileSync(path.join(library, 'loose.pdf'), 'a loose file');
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  const files = createLibraryFiles(library);
  const book = (...formats: string[]) => ({ id: '7', path: formats[0] ?? '', formats });

  it('finds a file by the relative path of metadata.db, or by an export’s absolute path from another machine', async () => {
    const relative = await files.file(book('Author/Title (7)/Title - Author.epub'), 'epub');
    expect(relative).toMatchObject({ path: fs.realpathSync(path.join(bookFolder, 'Title - Author.epub')), size: 7 });
    const exported = await files.file(book('/home/someone/Calibre Library/Author/Title (7)/Title - Author.epub'), 'epub');
    expect(exported?.path).toBe(relative?.path);
    expect((await files.cover(book('C:\\Users\\someone\\Calibre Library\\Author\\Title (7)\\Title - Author.epub')))?.size).toBe(9);
  });

  it('finds nothing outside the library folder, whatever the stored path says', async () => {
    for (const stored of ['../secret.pdf', 'Author/Title (7)/../../../secret.pdf', '../../../../../../etc/passwd.pdf', `${work}/secret.pdf`]) {
      expect(await files.file(book(stored), 'pdf'), stored).toBeNull();
    }
    // The library folder itself is no file, and a loose file's folder holds no cover of its own.
    expect(await files.file(book('Author/Title (7)/..'), '')).toBeNull();
    expect(await files.cover(book('loose.pdf'))).toBeNull();
    expect(await files.file(book('loose.pdf'), 'pdf')).not.toBeNull();
  });

  it('has no files without a library folder', async () => {
    const none = createLibraryFiles(null);
    expect(await none.file(book('Author/Title (7)/Title - Author.epub'), 'epub')).toBeNull();
    expect(await none.cover(book('Author/Title (7)/Title - Author.epub'))).toBeNull();
    expect(await none.filesOf(book('Author/Title (7)/Title - Author.epub'))).toEqual([]);
  });
});
