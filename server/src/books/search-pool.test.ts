import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CatalogueBook } from '../../../contract/books.ts';
import { migrate, openStorage } from '../storage/database.ts';
import { createSqliteCatalogue, searchPlan } from './books.search.sqlite.ts';
import { createSearchPool } from './search-pool.ts';

const everything = { terms: [], identifier: '', fields: ['title' as const], format: '' as const, from: 0, size: 10, comments: true };
const book = (id: string, title: string) => CatalogueBook.parse({
  id, title, author: 'Victor Hugo', identifier: '', publish_date: null, publisher: '', created: null,
  updated: '2020-01-01T00:00:00.000Z', comment: null, path: `${id}.epub`, formats: [`${id}.epub`],
});

describe('search workers', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'organiser-pool-'));
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('fail a search clearly when the catalogue cannot be opened, and start again once it can', async () => {
    const pool = createSearchPool(path.join(dataDir, 'organiser.sqlite'), { size: 2 });
    await expect(pool.search(searchPlan(everything))).rejects.toThrow(/unable to open/);

    const storage = await openStorage({ dataDir });
    await migrate(storage);
    const catalogue = createSqliteCatalogue(storage.db, storage.sqliteFile!);
    await catalogue.load('replace', async (write) => {
      await write(book('1', 'Les Misérables'));
      await write(book('2', 'Notre-Dame de Paris'));
    });
    const found = await pool.search(searchPlan({ ...everything, terms: ['miserables'] }));
    expect(found).toEqual({ total: 1, rows: [expect.objectContaining({ id: '1' })] });

    await pool.close();
    await expect(pool.search(searchPlan(everything))).rejects.toThrow('The catalogue is closed');
    await catalogue.close();
    await storage.close();
  });

  it('answer many searches at once, each with its own result', async () => {
    const storage = await openStorage({ dataDir });
    await migrate(storage);
    const catalogue = createSqliteCatalogue(storage.db, storage.sqliteFile!);
    const titles = ['river', 'garden', 'winter', 'ocean', 'forest'];
    await catalogue.load('replace', async (write) => {
      for (const [i, title] of titles.entries()) await write(book(String(i), `${title} tales`));
    });
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => catalogue.search({ ...everything, terms: [titles[i % titles.length]!] })),
    );
    expect(results.map((result) => result.books.map((b) => b.title))).toEqual(
      Array.from({ length: 50 }, (_, i) => [`${titles[i % titles.length]} tales`]),
    );
    await catalogue.close();
    await storage.close();
  });

  it('end once idle, and start again for the next search', async () => {
    const storage = await openStorage({ dataDir });
    await migrate(storage);
    const catalogue = createSqliteCatalogue(storage.db, storage.sqliteFile!);
    await catalogue.load('replace', async (write) => {
      await write(book('1', 'Les Misérables'));
    });
    const pool = createSearchPool(storage.sqliteFile!, { size: 2, idleMs: 200 });
    const search = () => pool.search(searchPlan({ ...everything, terms: ['miserables'] }));
    await Promise.all([search(), search()]);
    expect(pool.running()).toBe(2);
    await expect.poll(pool.running, { timeout: 5000, interval: 50 }).toBe(0);
    expect(await search()).toEqual({ total: 1, rows: [expect.objectContaining({ id: '1' })] });
    await pool.close();
    await catalogue.close();
    await storage.close();
  });
});
