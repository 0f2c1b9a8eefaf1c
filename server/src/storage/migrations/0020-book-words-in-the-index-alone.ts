import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * Book search has one engine, the word index held by the server (books/search-index/): the
 * database keeps the books and no longer their words. SQLite's two FTS5 tables and PostgreSQL's
 * `tsvector` column and its GIN index go; a load then writes the books alone.
 *
 * While a load's new index is built, the index of the catalogue before it answers, and it reads
 * the page's books by their `seq`: a `seq` must therefore never name another book later. SQLite
 * gave a replace's books the `seq`s of the books it removed (the largest rowid plus one), so its
 * table is made again with AUTOINCREMENT, which never hands a rowid out twice. PostgreSQL's
 * identity column never did.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') {
    await sql`drop index if exists books_search`.execute(db);
    await sql`alter table books drop column search`.execute(db);
    return;
  }
  await sql`drop table books_fts_meta`.execute(db);
  await sql`drop table books_fts_text`.execute(db);
  const schema = await sql<{ type: string; sql: string }>`
    select type, sql from sqlite_master where tbl_name = 'books' and sql is not null`.execute(db);
  const table = schema.rows.find((row) => row.type === 'table')!.sql;
  const indexes = schema.rows.filter((row) => row.type === 'index').map((row) => row.sql);
  const remade = table
    .replace(/^create table "?books"?/i, 'create table books_remade')
    .replace(/seq integer primary key/i, 'seq integer primary key autoincrement');
  await sql.raw(remade).execute(db);
  await sql`insert into books_remade select * from books`.execute(db);
  await sql`drop table books`.execute(db);
  await sql`alter table books_remade rename to books`.execute(db);
  for (const index of indexes) await sql.raw(index).execute(db);
}
