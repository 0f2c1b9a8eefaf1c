import { lazy, type ReactNode, Suspense } from 'react';
import { type BookCardsProps, type BookSlots, BookSlotsContext, type ShelfMenuProps } from '../components/book-slots.tsx';

// Each loads with the first screen that shows it, as the pages do.
const LazyShelfMenu = lazy(async () => ({ default: (await import('../features/shelves/shelf-menu.tsx')).ShelfMenu }));
const LazyBookList = lazy(async () => ({ default: (await import('../features/books/book-list.tsx')).BookList }));

const SLOTS: BookSlots = {
  ShelfMenu: (props: ShelfMenuProps) => (
    <Suspense fallback={null}>
      <LazyShelfMenu {...props} />
    </Suspense>
  ),
  BookCards: (props: BookCardsProps) => (
    <Suspense fallback={null}>
      <LazyBookList {...props} />
    </Suspense>
  ),
};

/** Gives the books and shelves features each other's pieces (components/book-slots.tsx). */
export function BookSlotsProvider({ children }: { children: ReactNode }) {
  return <BookSlotsContext.Provider value={SLOTS}>{children}</BookSlotsContext.Provider>;
}
