import { Migrator, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createPostgresBookmarkIndex } from '../bookmarks/bookmarks.search.postgres.ts';
import { createSqliteBookmarkIndex } from '../bookmarks/bookmarks.search.sqlite.ts';
import { migrate, openStorage } from '../storage/database.ts';
import { migrationProvider } from '../storage/migration-provider.ts';
import { workOutStaleData } from '../services.ts';
import { createTestDatabase, testDialects } from '../test/test-app.ts';
import { catalogueQuery } from './books.search.ts';
import { searchedTestCatalogue } from '../test/empty-catalogue.ts';

/** Words as they were folded before migration 0007: NFKD's marks removed, nothing more. */
const oldFold = (text: string) => text.normalize('NFKD').replace(/\p{M}+/gu, '');
const oldWords = (text: string) => oldFold(text).toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
const oldTsvector = (fields: Array<[text: string, weight: string]>) =>
  fields
    .flatMap(([text, weight]) => oldWords(text).map((word) => [word, weight]))
    .map(([word, weight], n) => `'${word}':${n + 1}${weight}`)
    .join(' ');

const TITLE = 'Kırmızı Łódź';
const FILE = '/home/me/Calibre Library/Ann Other/Kirmizi Lodz (1)/Kirmizi Lodz - Ann Other.epub';
const NOW = 1_767_225_600_000;

describe.each(testDialects)('migration 0007 on %s', (dialect) => {
  it('indexes books and bookmark entries stored before it as a fresh load would', async () => {
    const database = await createTestDatabase(dialect);
    const storage = await openStorage(database);
    try {
      const migrator = new Migrator({
        db: storage.db,
        provider: migrationProvider(dialect),
        ...(database.postgresSchema ? { migrationTableSchema: database.postgresSchema } : {}),
      });
      expect((await migrator.migrateTo('0006-books-ranking')).error).toBeUndefined();
      const db = storage.db;
      const bookSearch = dialect === 'postgres'
        ? sql`, ${oldTsvector([[TITLE, 'A'], ['Ann Other', 'B'], [FILE, 'D']])}::tsvector`
        : sql``;
      await sql`insert into books (id, title, author, identifier, publisher, path, formats, format_mask, title_words
        ${dialect === 'postgres' ? sql`, search` : sql``})
        values ('1', ${TITLE}, 'Ann Other', 'isbn:9780140449136', '', ${FILE}, ${JSON.stringify([FILE])}, 2, 2 ${bookSearch})`.execute(db);
      // The table as 0006 left it, before the administration's columns (0015).
      await db.insertInto('users').values({
        id: 'u1', email: 'u1@example.org', display_name: 'U', photo: null, password_hash: null, timezone: null, is_admin: 0,
        created_at: NOW, updated_at: NOW,
      } as never).execute();
      const entry = { title: 'Øresund bridge', link: 'https://example.org/bridge', tags: '["Straße"]', note: null };
      // The table as 0006 left it, before links had their compared form (0014).
      await db.insertInto('bookmarks').values({ id: 1, owner_id: 'u1', host: 'example.org', create_date: NOW, update_date: NOW, ...entry } as never)
        .execute();
      const entrySearch = dialect === 'postgres'
        ? sql`, ${oldTsvector([[entry.title, 'A'], [entry.link, 'B'], ['Straße', 'D']])}::tsvector`
        : sql``;
      await sql`insert into bookmark_index (bookmark_id, owner_id, host, tags, create_date, update_date
        ${dialect === 'postgres' ? sql`, search` : sql``})
        values (1, 'u1', 'example.org', ${entry.tags}, ${NOW}, ${NOW} ${entrySearch})`.execute(db);
      await sql`insert into bookmark_index_content (bookmark_id, title, link, note) values (1, ${entry.title}, ${entry.link}, null)`
        .execute(db);
      if (dialect === 'sqlite') {
        await sql`insert into books_fts_meta (rowid, title, author) values (1, ${oldFold(TITLE)}, 'Ann Other')`.execute(db);
        await sql`insert into books_fts_text (rowid, comment, file_path) values (1, '', ${FILE})`.execute(db);
        await sql`insert into bookmark_index_fts (rowid, title, link, note, tags)
          values (1, ${oldFold(entry.title)}, ${entry.link}, '', ${oldFold('Straße')})`.execute(db);
      }

      await migrate(storage);
      expect(await workOutStaleData(storage)).toEqual(['bookmarks.page_words', 'bookmarks.words', 'books.identifier_key']);
      expect(await workOutStaleData(storage)).toEqual([]);

      const catalogue = searchedTestCatalogue(storage);
      const index = dialect === 'sqlite' ? createSqliteBookmarkIndex(db) : createPostgresBookmarkIndex(db);
      try {
        const books = (keys: string, fields: Array<'title' | 'file_path'> = ['title']) =>
          catalogue.search(catalogueQuery({ keys, fields, format: '', from: 0, size: 10 })).then((result) => result.total);
        expect(await books('kirmizi,lodz')).toBe(1);
        expect(await books('978-0-14-044913-6')).toBe(1);
        expect(await books('library', ['file_path'])).toBe(0);
        expect(await books('kirmizi,lodz', ['file_path'])).toBe(1);
        const entries = (terms: string[]) =>
          index.search('u1', { terms, fields: ['title', 'link', 'note', 'tags'], from: 0, size: 10 }).then((result) => result.total);
        expect(await entries(['oresund'])).toBe(1);
        expect(await entries(['strasse', 'bridge'])).toBe(1);
      } finally {
        await catalogue.close();
      }
    } finally {
      await storage.close();
      await database.drop();
    }
  });
});
