import { z } from 'zod';
import { Book, BookResults } from './books.ts';

/**
 * The three shelves every person has, one reading status at a time (docs/behaviour/books.md);
 * `named` is a shelf its owner made.
 */
export const SHELF_KINDS = ['want', 'reading', 'read', 'named'] as const;
export type ShelfKind = (typeof SHELF_KINDS)[number];
export const BUILT_IN_SHELVES = { want: 'Want to read', reading: 'Reading', read: 'Read' } as const;
export const READING_STATUSES = ['want', 'reading', 'read'] as const;

export const MAX_SHELF_NAME = 100;

/** Names compare in any case and any run of spaces: "Holiday  reads" and "holiday reads" are one shelf. */
export const shelfNameKey = (name: string) => name.trim().replace(/\s+/g, ' ').toLowerCase();

/** What a member may do with a shelf shared with them: see its books, or see them and add (and take off) books. */
export const ShelfAccess = z.enum(['see', 'add'], { error: 'must be see or add' });
export type ShelfAccess = z.infer<typeof ShelfAccess>;

export const ShelfName = z
  .string()
  .transform((name) => name.trim().replace(/\s+/g, ' '))
  .pipe(z.string().min(1, 'must not be empty').max(MAX_SHELF_NAME, `must be at most ${MAX_SHELF_NAME} characters`));

/** `POST /api/shelves` and `PATCH /api/shelves/{id}`: a shelf's name, unique among its owner's. */
export const ShelfBody = z.strictObject({ name: ShelfName });
export type ShelfBody = z.infer<typeof ShelfBody>;

export const ShelfMember = z.object({ user_id: z.string(), display_name: z.string(), access: ShelfAccess });
export type ShelfMember = z.infer<typeof ShelfMember>;

/** A shelf as its owner or a member sees it. */
export const Shelf = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(SHELF_KINDS),
  owner: z.object({ id: z.string(), display_name: z.string() }),
  /** What the caller may do: `owner` everything (of a named shelf), `add` add and take off books, `see` only look. */
  access: z.enum(['owner', 'add', 'see']),
  book_count: z.number().int().nonnegative(),
  /** Whom the owner shares it with; empty for a member, who sees only their own access. */
  members: z.array(ShelfMember),
  /** With `?book=`: whether that book is on the shelf. */
  holds_book: z.boolean().optional(),
});
export type Shelf = z.infer<typeof Shelf>;

export const Shelves = z.array(Shelf);

export const ShelvesQuery = z.strictObject({ book: z.string().min(1).max(64).optional() });
export const ShelfParams = z.strictObject({ id: z.string().min(1).max(64) });
export const ShelfBookParams = z.strictObject({ id: z.string().min(1).max(64), bookId: z.string().min(1).max(64) });

/** `PUT /api/shelves/{id}/members`: everyone the shelf is shared with, replacing the list. */
export const ShelfMembersBody = z.strictObject({
  members: z
    .array(z.strictObject({ user_id: z.string().min(1).max(64), access: ShelfAccess }))
    .max(100, 'must list at most 100 members')
    .refine((members) => new Set(members.map((member) => member.user_id)).size === members.length, 'must name each member once'),
});
export type ShelfMembersBody = z.infer<typeof ShelfMembersBody>;

/** Someone of the household a shelf may be shared with. */
export const HouseholdMember = z.object({ id: z.string(), display_name: z.string() });
export const HouseholdMembers = z.array(HouseholdMember);
export type HouseholdMember = z.infer<typeof HouseholdMember>;

export const ShelfBooksQuery = z.strictObject({
  from: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(0, 'must be at least 0').max(1_000_000).default(0),
  size: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(1, 'must be at least 1').max(100, 'must be at most 100').default(25),
});

/** A page of a shelf's books, last added first, as the books page shows them, with the viewer's progress as the books page gives it. */
export const ShelfBooks = z.object({
  shelf: Shelf,
  total: z.number().int().nonnegative(),
  library_folder: z.string(),
  files_served: z.boolean(),
  books: z.array(Book),
  progress: BookResults.shape.progress,
});
export type ShelfBooks = z.infer<typeof ShelfBooks>;
