import { type FormEvent, useMemo, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import { Link, useNavigate, useParams } from 'react-router';
import { MAX_SHELF_NAME, type Shelf } from '../../../../contract/shelves.ts';
import { errorMessage } from '../../api/api-error.ts';
import { useBookSlots } from '../../components/book-slots.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { LoadingSpinner } from '../../components/loading-spinner.tsx';
import { OperationError } from '../../components/operation-error.tsx';
import { useListChanges } from '../../lib/use-list-changes.ts';
import { withProgress } from '../books/books.slice.ts';
import { ShelfSharing } from './shelf-sharing.tsx';
import { useDeleteShelfMutation, useRenameShelfMutation, useShelfBooksQuery } from './shelves.api.ts';

const PAGE_SIZE = 25;

/** One shelf: its books as the books page shows them, last added first; its owner renames, shares and deletes it here. */
export function ShelfPage() {
  const { id = '' } = useParams();
  return <ShelfView key={id} id={id} />;
}

function ShelfView({ id }: { id: string }) {
  const [pages, setPages] = useState(1);
  const first = useShelfBooksQuery({ id, from: 0, size: PAGE_SIZE });
  const shelf = first.data?.shelf;
  return (
    <section id="shelf">
      <nav className="d-flex flex-wrap gap-2 mb-3" aria-label="Shelf navigation">
        <Link className="btn btn-outline-secondary" to="/shelf">
          Shelves
        </Link>
      </nav>
      {first.error !== undefined && <Alert variant="danger">{errorMessage(first.error)}</Alert>}
      {shelf === undefined ? (
        first.error === undefined && <LoadingSpinner />
      ) : (
        <>
          <ShelfHeading shelf={shelf} />
          <h2 className="h6 text-muted" id="shelf-count">{shelf.book_count === 1 ? '1 book' : `${shelf.book_count} books`}</h2>
          {Array.from({ length: pages }, (_, page) => (
            <ShelfBooksPage key={page} id={id} from={page * PAGE_SIZE} last={page === pages - 1} onMore={() => setPages(pages + 1)} />
          ))}
        </>
      )}
    </section>
  );
}

function ShelfHeading({ shelf }: { shelf: Shelf }) {
  const navigate = useNavigate();
  const [renameShelf] = useRenameShelfMutation();
  const [deleteShelf] = useDeleteShelfMutation();
  const { busy, error, change } = useListChanges({ isFetching: false });
  const [name, setName] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const owned = shelf.access === 'owner' && shelf.kind === 'named';

  function rename(event: FormEvent) {
    event.preventDefault();
    if (name === null) return;
    void change(async () => {
      await renameShelf({ id: shelf.id, name }).unwrap();
      setName(null);
    });
  }

  return (
    <>
      {name === null ? (
        <div className="d-flex flex-wrap align-items-center gap-2 mb-2">
          <h1 className="h3 mb-0" id="shelf-name">
            {shelf.name}
          </h1>
          {shelf.access !== 'owner' && <span className="text-muted" id="shelf-owner">{`shared by ${shelf.owner.display_name}`}</span>}
          {owned && (
            <>
              <Button size="sm" variant="outline-secondary" id="shelf-rename" onClick={() => setName(shelf.name)}>
                Rename
              </Button>
              <Button size="sm" variant="outline-danger" id="shelf-delete" onClick={() => setDeleting(true)}>
                Delete
              </Button>
            </>
          )}
        </div>
      ) : (
        <Form onSubmit={rename} className="mb-2">
          <InputGroup>
            <Form.Control id="shelf-rename-input" aria-label="Shelf name" value={name} maxLength={MAX_SHELF_NAME} autoFocus onChange={(event) => setName(event.target.value)} />
            <Button type="submit" id="shelf-rename-save" disabled={busy || name.trim() === ''}>
              Save
            </Button>
            <Button variant="outline-secondary" onClick={() => setName(null)}>
              Cancel
            </Button>
          </InputGroup>
        </Form>
      )}
      <OperationError message={error} id="shelf-error" />
      {owned && <ShelfSharing shelf={shelf} />}
      <ConfirmDialog
        show={deleting}
        title="Delete this shelf?"
        body={`"${shelf.name}" goes, with its list of books; the books stay in the catalogue.`}
        confirm="Delete"
        busy={busy}
        onCancel={() => setDeleting(false)}
        onConfirm={() =>
          void change(async () => {
            await deleteShelf(shelf.id).unwrap();
            void navigate('/shelf');
          })
        }
      />
    </>
  );
}

function ShelfBooksPage({ id, from, last, onMore }: { id: string; from: number; last: boolean; onMore(): void }) {
  const { BookCards } = useBookSlots();
  const { data, error, isFetching } = useShelfBooksQuery({ id, from, size: PAGE_SIZE });
  // The cards show "42 % read" as the books page's do, from the reply's progress beside its books.
  const books = useMemo(() => (data === undefined ? [] : withProgress(data)), [data]);
  if (error !== undefined) return <Alert variant="danger">{errorMessage(error)}</Alert>;
  if (data === undefined) return isFetching ? <LoadingSpinner /> : null;
  if (data.total === 0) return <p id="shelf-empty">No books on this shelf yet: add them from a book’s page or card.</p>;
  const remaining = data.total - from - data.books.length;
  return (
    <>
      {BookCards && <BookCards books={books} libraryFolder={data.library_folder} filesServed={data.files_served} />}
      {last && remaining > 0 && (
        <div className="d-grid my-3">
          <Button variant="outline-primary" onClick={onMore}>
            {`${remaining} More`}
          </Button>
        </div>
      )}
    </>
  );
}
