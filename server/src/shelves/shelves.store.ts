import { randomUUID } from 'node:crypto';
import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import { BUILT_IN_SHELVES, READING_STATUSES, type ShelfAccess, shelfNameKey } from '../../../contract/shelves.ts';
import type { Database } from '../storage/schema.ts';

type Shelves = ExpressionBuilder<Database & { s: Database['shelves'] }, 's'>;

/** The shelf `s` is the viewer's own or shared with them. */
const visibleTo = (viewerId: string) => (eb: Shelves) =>
  eb.or([
    eb('s.owner_id', '=', viewerId),
    eb.exists(eb.selectFrom('shelf_members as m').select('m.shelf_id').whereRef('m.shelf_id', '=', 's.id').where('m.user_id', '=', viewerId)),
  ]);

/** The viewer may add books to (and take them off) the shelf `s`: its owner, or a member allowed to add. */
const fillableBy = (viewerId: string) => (eb: Shelves) =>
  eb.or([
    eb('s.owner_id', '=', viewerId),
    eb.exists(
      eb
        .selectFrom('shelf_members as m')
        .select('m.shelf_id')
        .whereRef('m.shelf_id', '=', 's.id')
        .where('m.user_id', '=', viewerId)
        .where('m.can_add', '=', 1),
    ),
  ]);

export type ShelfRow = {
  id: string;
  name: string;
  kind: string;
  owner_id: string;
  owner_name: string;
  /** 'owner', or a member's 'add' or 'see'. */
  access: 'owner' | ShelfAccess;
  book_count: number;
  holds_book: number | null;
};

export type MemberRow = { shelf_id: string; user_id: string; display_name: string; can_add: number };

/**
 * Shelves, their books and their members. Every function takes the id of the person asking and
 * puts it in the query: a shelf neither theirs nor shared with them is not found, like one that
 * does not exist. A shelf's books count only those in the catalogue (joined with `books`).
 */
export function createShelvesStore(db: Kysely<Database>) {
  function shelvesOf(viewerId: string, bookId: string | null) {
    return db
      .selectFrom('shelves as s')
      .innerJoin('users as o', 'o.id', 's.owner_id')
      .select((eb) => [
        's.id',
        's.name',
        's.kind',
        's.owner_id',
        'o.display_name as owner_name',
        eb
          .case()
          .when('s.owner_id', '=', viewerId)
          .then(sql.lit('owner'))
          .else(
            eb
              .selectFrom('shelf_members as m')
              .select((inner) => inner.case().when('m.can_add', '=', 1).then(sql.lit('add')).else(sql.lit('see')).end().as('access'))
              .whereRef('m.shelf_id', '=', 's.id')
              .where('m.user_id', '=', viewerId),
          )
          .end()
          .$castTo<ShelfRow['access']>()
          .as('access'),
        eb
          .selectFrom('shelf_books as sb')
          .innerJoin('books as b', 'b.id', 'sb.book_id')
          .select((count) => count.fn.countAll<number>().as('count'))
          .whereRef('sb.shelf_id', '=', 's.id')
          .as('book_count'),
        bookId === null
          ? sql<number | null>`null`.as('holds_book')
          : eb
              .case()
              .when(eb.exists(eb.selectFrom('shelf_books as held').select('held.book_id').whereRef('held.shelf_id', '=', 's.id').where('held.book_id', '=', bookId)))
              .then(1)
              .else(0)
              .end()
              .as('holds_book'),
      ])
      .where(visibleTo(viewerId));
  }

  const counted = (row: Omit<ShelfRow, 'book_count'> & { book_count: number | string | null }): ShelfRow => ({
    ...row,
    book_count: Number(row.book_count ?? 0),
  });

  return {
    /** Makes the owner's three built-in shelves if they are not there yet (their names are taken then). */
    async ensureBuiltIns(ownerId: string, at: number): Promise<void> {
      await db
        .insertInto('shelves')
        .values(
          READING_STATUSES.map((kind) => ({
            id: randomUUID(),
            owner_id: ownerId,
            kind,
            name: BUILT_IN_SHELVES[kind],
            name_key: shelfNameKey(BUILT_IN_SHELVES[kind]),
            created_at: at,
            updated_at: at,
          })),
        )
        .onConflict((conflict) => conflict.columns(['owner_id', 'name_key']).doNothing())
        .execute();
    },

    /** The viewer's shelves and those shared with them: built-in first, then by owner and name. */
    async visible(viewerId: string, bookId: string | null): Promise<ShelfRow[]> {
      const rows = await shelvesOf(viewerId, bookId)
        .orderBy((eb) => eb.case().when('s.owner_id', '=', viewerId).then(0).else(1).end())
        .orderBy((eb) => eb.case().when('s.kind', '=', 'want').then(0).when('s.kind', '=', 'reading').then(1).when('s.kind', '=', 'read').then(2).else(3).end())
        .orderBy('o.display_name')
        .orderBy('s.name_key')
        .orderBy('s.id')
        .execute();
      return rows.map(counted);
    },

    async find(viewerId: string, shelfId: string): Promise<ShelfRow | undefined> {
      const row = await shelvesOf(viewerId, null).where('s.id', '=', shelfId).executeTakeFirst();
      return row && counted(row);
    },

    /** The members of the owner's shelves among `shelfIds` (none of another owner's). */
    members(ownerId: string, shelfIds: string[]): Promise<MemberRow[]> {
      if (shelfIds.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('shelf_members as m')
        .innerJoin('shelves as s', 's.id', 'm.shelf_id')
        .innerJoin('users as u', 'u.id', 'm.user_id')
        .select(['m.shelf_id', 'm.user_id', 'u.display_name', 'm.can_add'])
        .where('s.owner_id', '=', ownerId)
        .where('m.shelf_id', 'in', shelfIds)
        .orderBy('u.display_name')
        .orderBy('m.user_id')
        .execute();
    },

    /** A named shelf; throws the database's unique violation when the owner has one of that name. */
    async create(ownerId: string, name: string, at: number): Promise<string> {
      const id = randomUUID();
      await db
        .insertInto('shelves')
        .values({ id, owner_id: ownerId, kind: 'named', name, name_key: shelfNameKey(name), created_at: at, updated_at: at })
        .execute();
      return id;
    },

    /** Renames the owner's named shelf; false when they have no such named shelf. */
    async rename(ownerId: string, shelfId: string, name: string, at: number): Promise<boolean> {
      const result = await db
        .updateTable('shelves')
        .set({ name, name_key: shelfNameKey(name), updated_at: at })
        .where('id', '=', shelfId)
        .where('owner_id', '=', ownerId)
        .where('kind', '=', 'named')
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** Deletes the owner's named shelf, its books and members with it; false when they have no such named shelf. */
    async remove(ownerId: string, shelfId: string): Promise<boolean> {
      const result = await db.deleteFrom('shelves').where('id', '=', shelfId).where('owner_id', '=', ownerId).where('kind', '=', 'named').executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    /**
     * Replaces the members of the owner's named shelf; false when they have no such named shelf.
     * Every member must be another account of the household, not disabled: `unknown` names any that is not.
     */
    async setMembers(
      ownerId: string,
      shelfId: string,
      members: Array<{ user_id: string; access: ShelfAccess }>,
    ): Promise<{ found: false } | { found: true; unknown: string[] }> {
      return db.transaction().execute(async (trx) => {
        const shelf = await trx.selectFrom('shelves').select('id').where('id', '=', shelfId).where('owner_id', '=', ownerId).where('kind', '=', 'named').executeTakeFirst();
        if (!shelf) return { found: false };
        const ids = members.map((member) => member.user_id);
        const known =
          ids.length === 0
            ? []
            : await trx.selectFrom('users').select('id').where('id', 'in', ids).where('id', '<>', ownerId).where('disabled_at', 'is', null).execute();
        const knownIds = new Set(known.map((row) => row.id));
        const unknown = ids.filter((id) => !knownIds.has(id));
        if (unknown.length > 0) return { found: true, unknown };
        await trx.deleteFrom('shelf_members').where('shelf_id', '=', shelfId).execute();
        if (members.length > 0) {
          await trx
            .insertInto('shelf_members')
            .values(members.map((member) => ({ shelf_id: shelfId, user_id: member.user_id, can_add: member.access === 'add' ? 1 : 0 })))
            .execute();
        }
        return { found: true, unknown: [] };
      });
    },

    /**
     * Puts a book on a shelf the viewer may fill. On one of the three built-in shelves it is taken
     * off the other two of the same owner: a book has one reading status at a time. False when the
     * viewer may not fill the shelf (or cannot see it).
     */
    async addBook(viewerId: string, shelfId: string, bookId: string, at: number): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const shelf = await trx.selectFrom('shelves as s').select(['s.id', 's.kind', 's.owner_id']).where('s.id', '=', shelfId).where(fillableBy(viewerId)).executeTakeFirst();
        if (!shelf) return false;
        if (shelf.kind !== 'named') {
          await trx
            .deleteFrom('shelf_books')
            .where('book_id', '=', bookId)
            .where('shelf_id', 'in', (eb) =>
              eb.selectFrom('shelves').select('id').where('owner_id', '=', shelf.owner_id).where('kind', 'in', READING_STATUSES).where('id', '<>', shelf.id),
            )
            .execute();
        }
        await trx
          .insertInto('shelf_books')
          .values({ shelf_id: shelf.id, book_id: bookId, added_by: viewerId, added_at: at })
          .onConflict((conflict) => conflict.columns(['shelf_id', 'book_id']).doNothing())
          .execute();
        return true;
      });
    },

    /** Takes a book off a shelf the viewer may fill; false when they may not (a book not on it is no error). */
    async removeBook(viewerId: string, shelfId: string, bookId: string): Promise<boolean> {
      const shelf = await db.selectFrom('shelves as s').select('s.id').where('s.id', '=', shelfId).where(fillableBy(viewerId)).executeTakeFirst();
      if (!shelf) return false;
      await db
        .deleteFrom('shelf_books')
        .where('book_id', '=', bookId)
        .where('shelf_id', 'in', (eb) => eb.selectFrom('shelves as s').select('s.id').where('s.id', '=', shelfId).where(fillableBy(viewerId)))
        .execute();
      return true;
    },

    /** A page of the ids of a visible shelf's books in the catalogue, last added first. */
    async bookIds(viewerId: string, shelfId: string, from: number, size: number): Promise<string[]> {
      const rows = await db
        .selectFrom('shelf_books as sb')
        .innerJoin('shelves as s', 's.id', 'sb.shelf_id')
        .innerJoin('books as b', 'b.id', 'sb.book_id')
        .select('sb.book_id')
        .where('sb.shelf_id', '=', shelfId)
        .where(visibleTo(viewerId))
        .orderBy('sb.added_at', 'desc')
        .orderBy('sb.book_id')
        .limit(size)
        .offset(from)
        .execute();
      return rows.map((row) => row.book_id);
    },

    /** The other accounts of the installation, not disabled: whom a shelf may be shared with. */
    householdOf(viewerId: string) {
      return db
        .selectFrom('users')
        .select(['id', 'display_name'])
        .where('id', '<>', viewerId)
        .where('disabled_at', 'is', null)
        .orderBy('display_name')
        .orderBy('id')
        .execute();
    },
  };
}
export type ShelvesStore = ReturnType<typeof createShelvesStore>;
