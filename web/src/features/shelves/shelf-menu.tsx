import { useEffect, useId, useRef, useState } from 'react';
import Form from 'react-bootstrap/Form';
import type { Shelf } from '../../../../contract/shelves.ts';
import type { ShelfMenuProps } from '../../components/book-slots.tsx';
import { LoadingSpinner } from '../../components/loading-spinner.tsx';
import { OperationError } from '../../components/operation-error.tsx';
import { useListChanges } from '../../lib/use-list-changes.ts';
import { useShelveBookMutation, useShelvesQuery } from './shelves.api.ts';

/** The shelves a book can be put on by the caller: their own, and those shared with them to add to. */
const fillable = (shelves: readonly Shelf[]) => shelves.filter((shelf) => shelf.access !== 'see');
const shelfLabel = (shelf: Shelf) => (shelf.access === 'owner' ? shelf.name : `${shelf.name} (${shelf.owner.display_name})`);

/**
 * A book's shelves, each a check box: on the book's page in full, on a card behind a small
 * button, asked of the server only once opened (a page of cards asks nothing more).
 */
export function ShelfMenu({ bookId, title, inline = false, opened = false }: ShelfMenuProps) {
  return inline ? (
    <section className="book-shelves mb-3" aria-label={`Shelves of ${title}`}>
      <h2 className="h6 mb-1">Shelves</h2>
      <ShelfChoices bookId={bookId} />
    </section>
  ) : (
    <ShelfDropdown bookId={bookId} title={title} opened={opened} />
  );
}

function ShelfDropdown({ bookId, title, opened }: { bookId: string; title: string; opened: boolean }) {
  const [open, setOpen] = useState(opened);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  // It takes the place of the card's own button, which had the focus.
  const toggle = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (opened) toggle.current?.focus();
  }, [opened]);
  useEffect(() => {
    if (!open) return;
    const closeOutside = (event: Event) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    document.addEventListener('click', closeOutside);
    document.addEventListener('keydown', closeOnEscape);
    return () => {
      document.removeEventListener('click', closeOutside);
      document.removeEventListener('keydown', closeOnEscape);
    };
  }, [open]);
  return (
    <div ref={root} className="dropdown d-inline-block shelf-menu">
      <button
        ref={toggle}
        type="button"
        className="btn btn-sm btn-outline-secondary dropdown-toggle py-0"
        aria-expanded={open}
        aria-controls={menuId}
        aria-label={`Shelves of ${title}`}
        onClick={() => setOpen(!open)}
      >
        Shelves
      </button>
      {open && (
        <div id={menuId} className="dropdown-menu show p-2" style={{ minWidth: '14rem' }}>
          <ShelfChoices bookId={bookId} />
        </div>
      )}
    </div>
  );
}

function ShelfChoices({ bookId }: { bookId: string }) {
  const [shelveBook] = useShelveBookMutation();
  const { items, busy, error, change } = useListChanges(useShelvesQuery(bookId));
  const idPrefix = useId();
  if (items === null) return error === null ? <LoadingSpinner /> : <OperationError message={error} />;
  return (
    <>
      <OperationError message={error} />
      {fillable(items).map((shelf) => (
        <Form.Check
          key={shelf.id}
          id={`${idPrefix}-${shelf.id}`}
          type="checkbox"
          className={shelf.kind === 'named' ? 'shelf-choice' : 'shelf-choice shelf-status'}
          label={shelfLabel(shelf)}
          checked={shelf.holds_book === true}
          disabled={busy}
          onChange={(event) => void change(() => shelveBook({ id: shelf.id, bookId, on: event.target.checked }).unwrap())}
        />
      ))}
    </>
  );
}
