import { type ComponentType, createContext, useContext } from 'react';
import type { Book } from '../../../contract/books.ts';

/** A book's shelves: a small menu on a card, the whole list on the book's page. */
/** `opened`: a card's menu is loaded at its first click, and comes open. */
export type ShelfMenuProps = { bookId: string; title: string; inline?: boolean; opened?: boolean };
/** Books shown as the books page shows them: its cards or covers. */
export type BookCardsProps = { books: readonly Book[]; libraryFolder: string; filesServed: boolean };

/**
 * What one feature shows inside another's screens, handed down by the app (app/book-slots.tsx):
 * the books feature puts the shelves' menu on its cards and page, the shelves feature shows its
 * books with the books feature's cards, and neither imports the other's components.
 */
export type BookSlots = { ShelfMenu: ComponentType<ShelfMenuProps> | null; BookCards: ComponentType<BookCardsProps> | null };

export const BookSlotsContext = createContext<BookSlots>({ ShelfMenu: null, BookCards: null });

export const useBookSlots = () => useContext(BookSlotsContext);
