import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BookResults } from '../../../../contract/books.ts';
import { HealthReply } from '../../../../contract/health.ts';
import { multipart } from '../../test/multipart.ts';
import { bearer, buildTestApp, createTestDatabase, registerUser, testDialects } from '../../test/test-app.ts';

const FIXTURES = path.join(import.meta.dirname, '../fixtures/calibre');

/**
 * A server's searches while its word index is built: the database answers them, with the same
 * results, and the health reply says how far the index is; after a load it is built again.
 */
describe.each(testDialects)('the word index built in the background on %s', (dialect) => {
  it('answers from the database until the index is built, then from the index, and builds it again after a load', async () => {
    const database = await createTestDatabase(dialect);
    const t = await buildTestApp(database, { wordIndex: 'background' });
    try {
      const token = (await registerUser(t.app)).idToken;
      const upload = async (name: string, mode: string) => {
        const body = multipart([['name', mode], ['file', fs.readFileSync(path.join(FIXTURES, name)), 'index']]);
        const response = await t.app.inject({ method: 'POST', url: '/api/books/index', ...body, headers: { ...body.headers, ...bearer(token) } });
        expect(response.statusCode, response.body).toBe(200);
      };
      const search = async (keys: string) => {
        const response = await t.app.inject({ url: '/api/books', query: { keys, fields: 'title,author,comment' }, headers: bearer(token) });
        const { total, books } = BookResults.parse(response.json());
        return { total, titles: books.map((book) => book.title) };
      };
      const index = async () => HealthReply.parse((await t.app.inject({ url: '/api/health' })).json()).search_index;
      const built = async (books: number) => {
        await expect.poll(index, { timeout: 20_000, interval: 50 }).toEqual({ state: 'ready', books });
      };

      await upload('library.json', 'replace');
      expect(await index()).toEqual({ state: 'idle' });
      const first = await search('the');
      expect(first.total).toBeGreaterThan(0);
      await built(15);
      expect(await search('the')).toEqual(first);

      await upload('library-updated.json', 'update');
      const updated = await search('omens');
      expect(updated.titles[0]).toMatch(/^Good Omens: The Nice/);
      await built(16);
      expect(await search('omens')).toEqual(updated);
    } finally {
      await t.close();
      await database.drop();
    }
  }, 60_000);
});
