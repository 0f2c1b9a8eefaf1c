import type { CatalogueBook } from '../../../contract/books.ts';
import type { HouseholdMember, Shelf, ShelfBooks, ShelfMembersBody } from '../../../contract/shelves.ts';
import type { BooksService } from '../books/books.service.ts';
import type { Clock } from '../clock.ts';
import { AppError, notFound } from '../errors.ts';
import { isUniqueViolation } from '../storage/unique-violation.ts';
import type { MemberRow, ShelfRow, ShelvesStore } from './shelves.store.ts';

const shelfNotFound = () => notFound('Shelf');
const ownerOnly = (action: string) => new AppError(403, `Only the shelf's owner may ${action} it`);
const builtIn = (action: string) => new AppError(400, `"Want to read", "Reading" and "Read" are built in: they cannot be ${action}`);
const nameTaken = (name: string) => new AppError(409, `You already have a shelf named "${name}"`);

function toShelf(row: ShelfRow, members: MemberRow[]): Shelf {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind as Shelf['kind'],
    owner: { id: row.owner_id, display_name: row.owner_name },
    access: row.access,
    book_count: row.book_count,
    members: members
      .filter((member) => member.shelf_id === row.id)
      .map((member) => ({ user_id: member.user_id, display_name: member.display_name, access: member.can_add === 1 ? 'add' : 'see' })),
    ...(row.holds_book === null ? {} : { holds_book: Number(row.holds_book) === 1 }),
  };
}

type Dependencies = {
  store: ShelvesStore;
  books: Pick<BooksService, 'get' | 'getMany' | 'libraryFolder'>;
  clock: Clock;
  /** Whether the server serves covers and files (a Calibre library folder): the shelf page shows covers then. */
  filesServed: boolean;
  /** How far a user has read each of these books that has a position (reading/), for the cards' "42 % read". */
  progressOf(userId: string, bookIds: readonly string[]): Promise<Map<string, number>>;
};

/**
 * Each person's shelves (docs/behaviour/books.md): the three built in, made the first time they
 * are needed, and the named ones, which their owner may share with members of the household.
 */
export function createShelvesService({ store, books, clock, filesServed, progressOf }: Dependencies) {
  async function shelf(viewerId: string, shelfId: string): Promise<Shelf> {
    await store.ensureBuiltIns(viewerId, clock.now());
    const row = await store.find(viewerId, shelfId);
    if (!row) throw shelfNotFound();
    return toShelf(row, row.access === 'owner' ? await store.members(viewerId, [row.id]) : []);
  }

  /** Why the owner's change of a shelf did not happen: not theirs to change, built in, or not there for them. */
  async function refusal(viewerId: string, shelfId: string, action: string): Promise<AppError> {
    const row = await store.find(viewerId, shelfId);
    if (!row) return shelfNotFound();
    if (row.access !== 'owner') return ownerOnly(action);
    return builtIn(`${action}d`);
  }

  return {
    /** The viewer's shelves and those shared with them; with `bookId`, whether each holds that book. */
    async list(viewerId: string, bookId: string | null): Promise<Shelf[]> {
      await store.ensureBuiltIns(viewerId, clock.now());
      const rows = await store.visible(viewerId, bookId);
      const members = await store.members(
        viewerId,
        rows.filter((row) => row.access === 'owner' && row.kind === 'named').map((row) => row.id),
      );
      return rows.map((row) => toShelf(row, members));
    },

    get: shelf,

    async create(ownerId: string, name: string): Promise<Shelf> {
      await store.ensureBuiltIns(ownerId, clock.now());
      try {
        return await shelf(ownerId, await store.create(ownerId, name, clock.now()));
      } catch (error) {
        if (isUniqueViolation(error)) throw nameTaken(name);
        throw error;
      }
    },

    async rename(ownerId: string, shelfId: string, name: string): Promise<Shelf> {
      await store.ensureBuiltIns(ownerId, clock.now());
      let renamed: boolean;
      try {
        renamed = await store.rename(ownerId, shelfId, name, clock.now());
      } catch (error) {
        if (isUniqueViolation(error)) throw nameTaken(name);
        throw error;
      }
      if (!renamed) throw await refusal(ownerId, shelfId, 'rename');
      return shelf(ownerId, shelfId);
    },

    async remove(ownerId: string, shelfId: string): Promise<void> {
      if (!(await store.remove(ownerId, shelfId))) throw await refusal(ownerId, shelfId, 'delete');
    },

    async share(ownerId: string, shelfId: string, { members }: ShelfMembersBody): Promise<Shelf> {
      const result = await store.setMembers(ownerId, shelfId, members);
      if (!result.found) {
        const why = await refusal(ownerId, shelfId, 'share');
        throw why.statusCode === 400 ? builtIn('shared') : why;
      }
      if (result.unknown.length > 0) {
        throw new AppError(400, `members: ${result.unknown.join(', ')} ${result.unknown.length === 1 ? 'is' : 'are'} not another member of the household`);
      }
      return shelf(ownerId, shelfId);
    },

    async addBook(viewerId: string, shelfId: string, bookId: string): Promise<Shelf> {
      await store.ensureBuiltIns(viewerId, clock.now());
      await books.get(bookId);
      if (!(await store.addBook(viewerId, shelfId, bookId, clock.now()))) throw await fillRefusal(viewerId, shelfId);
      return shelf(viewerId, shelfId);
    },

    async removeBook(viewerId: string, shelfId: string, bookId: string): Promise<Shelf> {
      if (!(await store.removeBook(viewerId, shelfId, bookId))) throw await fillRefusal(viewerId, shelfId);
      return shelf(viewerId, shelfId);
    },

    /** A page of a shelf's books, last added first, as the books page's cards show them. */
    async books(viewerId: string, shelfId: string, from: number, size: number): Promise<ShelfBooks> {
      const seen = await shelf(viewerId, shelfId);
      const bookIds = await store.bookIds(viewerId, shelfId, from, size);
      const [found, libraryFolder, progress] = await Promise.all([books.getMany(bookIds), books.libraryFolder(), progressOf(viewerId, bookIds)]);
      return {
        shelf: seen,
        total: seen.book_count,
        library_folder: libraryFolder,
        files_served: filesServed,
        books: found.map(({ comment: _comment, ...book }, at) => ({ ...book, index: from + at })),
        progress: Object.fromEntries(progress),
      };
    },

    /** The books of a page of a shelf, for its OPDS feed: comments included for the summaries. */
    async feedBooks(viewerId: string, shelfId: string, from: number, size: number): Promise<{ shelf: Shelf; books: CatalogueBook[] }> {
      const seen = await shelf(viewerId, shelfId);
      return { shelf: seen, books: await books.getMany(await store.bookIds(viewerId, shelfId, from, size)) };
    },

    /** The other people of the household, whom a shelf may be shared with. */
    household(viewerId: string): Promise<HouseholdMember[]> {
      return store.householdOf(viewerId);
    },
  };

  async function fillRefusal(viewerId: string, shelfId: string): Promise<AppError> {
    const row = await store.find(viewerId, shelfId);
    return row ? new AppError(403, 'This shelf is shared with you to see: only its owner and members who may add change its books') : shelfNotFound();
  }
}
export type ShelvesService = ReturnType<typeof createShelvesService>;
