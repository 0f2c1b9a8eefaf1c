import { Link } from 'react-router';
import { MAX_SHELF_NAME, type Shelf } from '../../../../contract/shelves.ts';
import { NewNameForm } from '../../components/new-name-form.tsx';
import { LoadingSpinner } from '../../components/loading-spinner.tsx';
import { OperationError } from '../../components/operation-error.tsx';
import { useListChanges } from '../../lib/use-list-changes.ts';
import { useCreateShelfMutation, useShelvesQuery } from './shelves.api.ts';

const count = (shelf: Shelf) => (shelf.book_count === 1 ? '1 book' : `${shelf.book_count} books`);

/** The caller's shelves, a new one named here, and the shelves others share with them (docs/behaviour/books.md). */
export function ShelvesPage() {
  const [createShelf] = useCreateShelfMutation();
  const { items, busy, error, change } = useListChanges(useShelvesQuery(null));

  const mine = items?.filter((shelf) => shelf.access === 'owner') ?? [];
  const shared = items?.filter((shelf) => shelf.access !== 'owner') ?? [];
  return (
    <section id="shelves">
      <h1 className="h3">Shelves</h1>
      <OperationError message={error} id="shelves-error" />
      <NewNameForm id="shelf" label="New shelf" placeholder="e.g. Holiday reads" maxLength={MAX_SHELF_NAME} busy={busy} onCreate={(name) => change(() => createShelf(name).unwrap())} />
      {items === null && busy && <LoadingSpinner />}
      {items !== null && (
        <>
          <ShelfLinks shelves={mine} id="my-shelves" />
          <h2 className="h5 mt-4">Shared with you</h2>
          {shared.length === 0 ? <p id="shared-shelves-none" className="text-muted">No one shares a shelf with you yet.</p> : <ShelfLinks shelves={shared} id="shared-shelves" />}
        </>
      )}
    </section>
  );
}

function ShelfLinks({ shelves, id }: { shelves: Shelf[]; id: string }) {
  return (
    <ul className="list-group" id={id}>
      {shelves.map((shelf) => (
        <li key={shelf.id} className="list-group-item d-flex justify-content-between align-items-center">
          <Link to={`/shelf/${encodeURIComponent(shelf.id)}`} className="shelf-link">
            {shelf.name}
          </Link>
          <span className="small text-muted">
            {shelf.access === 'owner' ? count(shelf) : `${shelf.owner.display_name} · ${count(shelf)}${shelf.access === 'add' ? ' · you may add' : ''}`}
          </span>
        </li>
      ))}
    </ul>
  );
}
