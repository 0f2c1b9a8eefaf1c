import { z } from 'zod';

/** The navigation state of a link to a book: the ids of the books before and after it in the list. */
export const BookNeighbours = z.object({
  prev: z.string().nullable().catch(null),
  next: z.string().nullable().catch(null),
});
export type BookNeighbours = z.infer<typeof BookNeighbours>;

const NONE: BookNeighbours = { prev: null, next: null };

/** The neighbours of the book `id` in the loaded list, or null when the list does not hold it. */
export function neighboursInList(books: readonly { id: string }[], id: string): BookNeighbours | null {
  const at = books.findIndex((book) => book.id === id);
  if (at < 0) return null;
  return { prev: books[at - 1]?.id ?? null, next: books[at + 1]?.id ?? null };
}

/** The neighbours a link brought along as navigation state; none when it brought none. */
export function neighboursFromState(state: unknown): BookNeighbours {
  const parsed = BookNeighbours.safeParse(state);
  return parsed.success ? parsed.data : NONE;
}

/**
 * The neighbours of a book: from the loaded list, which is what Previous and Next walk, else from
 * the state the link brought (a list cleared since, or a page opened from another tab).
 */
export function bookNeighbours(books: readonly { id: string }[], id: string, state: unknown): BookNeighbours {
  return neighboursInList(books, id) ?? neighboursFromState(state);
}
