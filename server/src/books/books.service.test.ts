import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BookQuery } from '../../../contract/books.ts';
import { systemClock } from '../clock.ts';
import { createTestDatabase, openTestStorage, testDialects } from '../test/test-app.ts';
import { searchedTestCatalogue } from '../test/empty-catalogue.ts';
import type { Storage } from '../storage/database.ts';
import { migrate } from '../storage/database.ts';
import { createBooksService } from './books.service.ts';
import type { Catalogue } from './books.search.ts';
import { createLocalLoadSharing } from './catalogue-load-sharing.ts';
import { createCatalogueLoads } from './catalogue-loads.ts';
import { fromCalibreJson } from './import/calibre-json.ts';

describe.each(testDialects)('the kept search replies on %s', (dialect) => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let storage: Storage;
  let catalogue: Catalogue;
  let searched: number;

  beforeEach(async () => {
    database = await createTestDatabase(dialect);
    storage = await openTestStorage(database);
    await migrate(storage);
    const inner = searchedTestCatalogue(storage);
    searched = 0;
    // The catalogue, counting the searches that reach it.
    catalogue = { ...inner, searchPage: (query) => ((searched += 1), inner.searchPage(query)) };
    await loadTitles(['Dune', 'Emma']);
  });

  afterEach(async () => {
    await catalogue.close();
    await storage.close();
    await database.drop();
  });

  const loadTitles = (titles: string[]) =>
    catalogue.load('replace', async (write) => {
      for (const [i, title] of titles.entries()) await write(fromCalibreJson({ id: i + 1, title }));
    });

  const service = (keptReplyBytes?: number) =>
    createBooksService({
      catalogue,
      tmpDir: path.join(database.dataDir, 'tmp'),
      loads: createCatalogueLoads({ clock: systemClock, sharing: createLocalLoadSharing() }),
      keptReplyBytes,
    });

  it('keeps a reply from the second time its search is asked, until the catalogue changes', async () => {
    const books = service();
    const dune = BookQuery.parse({ keys: 'dune' });
    const first = await books.searchReply(dune);
    expect(JSON.parse(first)).toMatchObject({ total: 1, books: [{ title: 'Dune' }] });
    expect(searched).toBe(1);
    // Asked once, so not kept: a stream of searches never asked twice keeps nothing.
    expect(await books.searchReply(dune)).toBe(first);
    expect(searched).toBe(2);
    expect(await books.searchReply(dune)).toBe(first);
    expect(await books.searchReply(dune)).toBe(first);
    expect(searched).toBe(2);
    await books.searchReply(BookQuery.parse({ keys: 'emma' }));
    expect(searched).toBe(3);

    await loadTitles(['Dune messiah']);
    expect(JSON.parse(await books.searchReply(dune))).toMatchObject({ total: 1, books: [{ title: 'Dune messiah' }] });
    expect(searched).toBe(4);
  });

  it.each([
    { title: 'Dune', kept: 10 },
    // A dash beyond Latin-1: V8 keeps the reply in two bytes a character.
    { title: 'Dune — a novel', kept: 5 },
  ])('keeps replies up to the heap they take: "$title", $kept of ten', async ({ title, kept }) => {
    await loadTitles([title]);
    const sized = (size: number) => BookQuery.parse({ keys: 'dune', size });
    const replyLength = (await service().searchReply(sized(1))).length;
    // Room for ten replies of a byte a character; ten searches with the same reply, each asked twice so that it is kept.
    const books = service(10 * replyLength);
    for (let size = 1; size <= 10; size++) for (const _ of [1, 2]) await books.searchReply(sized(size));
    searched = 0;
    // Latest first: a search asked again is kept again, and would push out those not yet asked.
    for (let size = 10; size >= 1; size--) await books.searchReply(sized(size));
    expect(10 - searched).toBe(kept);
  });
});
