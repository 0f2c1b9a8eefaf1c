import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { NO_MORE_RESULTS, type BookmarkState as ReadState } from '../../../../contract/bookmarks.ts';
import { LoadingSpinner } from '../../components/loading-spinner.tsx';
import { OperationError } from '../../components/operation-error.tsx';
import { useKeptCopies } from './use-kept-copies.ts';
import { BookmarkCard } from './bookmark-card.tsx';
import { type BookmarkState, pageSizeSet, useBookmarksDispatch } from './bookmarks.slice.ts';

/** The page sizes offered: 5 (the default), then the usual choices. */
const PAGE_SIZES = [5, 10, 20, 50, 100];

interface BookmarkResultsProps {
  state: BookmarkState;
  busy: boolean;
  onMore: () => void;
  /** Given on the list: the cards can be selected. */
  selection?: { selected: ReadonlySet<number>; onSelect: (id: number, selected: boolean) => void } | undefined;
  /** Read later: each card's buttons mark its bookmark read, unread or archived. */
  onState?: ((id: number, state: ReadState) => void) | undefined;
}

/**
 * What the list and the search show (docs/behaviour/bookmarks.md): the count — of every match, from the reply, not of
 * the cards loaded — with the page size beside it, a spinner, the error line, cards and 'Get More'.
 */
export function BookmarkResults({ state, busy, onMore, selection, onState }: BookmarkResultsProps) {
  const dispatch = useBookmarksDispatch();
  const { bookmarks, pageCursor, operationError, total, pageSize } = state;
  const found = total ?? bookmarks.length;
  const keptCopies = useKeptCopies(bookmarks);
  return (
    <>
      <OperationError message={operationError} />
      <div className="d-flex align-items-center gap-2 mb-2">
        <h2 className="h5 mb-0">{found > 0 ? `Found ${found} Bookmarks` : 'No bookmark found'}</h2>
        <Form.Label htmlFor="bookmark-page-size" className="ms-auto mb-0 small text-muted">
          Per page
        </Form.Label>
        <Form.Select
          id="bookmark-page-size"
          size="sm"
          className="w-auto"
          value={pageSize}
          onChange={(event) => dispatch(pageSizeSet(Number(event.target.value)))}
        >
          {PAGE_SIZES.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </Form.Select>
      </div>
      <div className="bookmark-list">
        {bookmarks.map((bookmark) => (
          <BookmarkCard
            key={bookmark.id}
            bookmark={bookmark}
            onSelect={selection?.onSelect}
            selected={selection?.selected.has(bookmark.id) ?? false}
            onState={onState}
            keptCopy={keptCopies(bookmark.id)}
            snippet={state.snippets[String(bookmark.id)]}
          />
        ))}
      </div>
      {busy && <LoadingSpinner />}
      {pageCursor !== null && pageCursor !== NO_MORE_RESULTS && (
        <div className="d-grid my-3">
          <Button variant="outline-primary" onClick={onMore} disabled={busy}>
            Get More
          </Button>
        </div>
      )}
    </>
  );
}
