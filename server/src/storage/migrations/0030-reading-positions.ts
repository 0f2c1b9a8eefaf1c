import { type Kysely, sql } from 'kysely';

/**
 * Reading (issue 38): one position per person and book, KOReader's progress per document as it
 * sent it, the document ids KOReader computes from each file of the library, and the key KOReader
 * signs in with for each app password made from now on.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // No foreign key to books: a library load replaces the catalogue, and a book that comes back
  // (same Calibre id) finds its position again.
  await sql`create table reading_positions (
    user_id text not null references users (id) on delete cascade,
    book_id text not null,
    percentage double precision not null,
    locator text,
    device text not null,
    device_id text,
    koreader_progress text,
    updated_at bigint not null,
    primary key (user_id, book_id)
  )`.execute(db);
  await sql`create index reading_positions_recent on reading_positions (user_id, updated_at)`.execute(db);

  await sql`create table koreader_documents (
    user_id text not null references users (id) on delete cascade,
    document text not null,
    progress text not null,
    percentage double precision not null,
    device text not null,
    device_id text,
    updated_at bigint not null,
    primary key (user_id, document)
  )`.execute(db);

  // Several ids per file: its partial MD5, and the MD5 of each name a device may keep it under.
  await sql`create table book_document_ids (
    book_id text not null,
    format text not null,
    document text not null,
    size bigint not null,
    modified_at bigint not null,
    primary key (book_id, format, document)
  )`.execute(db);
  await sql`create index book_document_ids_document on book_document_ids (document)`.execute(db);

  // A JSON list of SHA-256 hashes of the MD5 KOReader sends for each way of typing the password;
  // null for a password made before, which KOReader cannot use.
  await sql`alter table app_passwords add column sync_keys text`.execute(db);
}
