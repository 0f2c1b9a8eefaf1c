import { type Kysely, sql } from 'kysely';

/**
 * Shelves (issue 38): each person's three reading statuses and the shelves they name, the books on
 * them, and the members of the household a named shelf is shared with. A shelf's books name the
 * catalogue's ids without a foreign key: a catalogue load replaces the books, and a book that
 * comes back under its id is on its shelves again (docs/decisions/0037-shelves.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table shelves (
    id text primary key,
    owner_id text not null references users (id) on delete cascade,
    kind text not null,
    name text not null,
    name_key text not null,
    created_at bigint not null,
    updated_at bigint not null,
    unique (owner_id, name_key)
  )`.execute(db);
  await sql`create table shelf_books (
    shelf_id text not null references shelves (id) on delete cascade,
    book_id text not null,
    added_by text references users (id) on delete set null,
    added_at bigint not null,
    primary key (shelf_id, book_id)
  )`.execute(db);
  await sql`create index shelf_books_added on shelf_books (shelf_id, added_at)`.execute(db);
  await sql`create table shelf_members (
    shelf_id text not null references shelves (id) on delete cascade,
    user_id text not null references users (id) on delete cascade,
    can_add integer not null,
    primary key (shelf_id, user_id)
  )`.execute(db);
  await sql`create index shelf_members_user on shelf_members (user_id)`.execute(db);
}
