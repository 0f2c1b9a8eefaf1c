import Button from 'react-bootstrap/Button';
import { NO_MORE_RESULTS } from '../../../../contract/bookmarks.ts';
import { LoadingSpinner } from '../../components/loading-spinner.tsx';
import { OperationError } from '../../components/operation-error.tsx';
import { BookmarkCard } from './bookmark-card.tsx';
import type { BookmarkState } from './bookmarks.slice.ts';

interface BookmarkResultsProps {
  state: BookmarkState;
  busy: boolean;
  onMore: () => void;
}

/** What the list and the search show (spec §2): the count, a spinner, the error line, cards and 'Get More'. */
export function BookmarkResults({ state, busy, onMore }: BookmarkResultsProps) {
  const { bookmarks, pageCursor, operationError } = state;
  return (
    <>
      <OperationError message={operationError} />
      <h2 className="h5">{bookmarks.length > 0 ? `Found ${bookmarks.length} Bookmarks` : 'No bookmark found'}</h2>
      <div className="bookmark-list">
        {bookmarks.map((bookmark) => (
          <BookmarkCard key={bookmark.id} bookmark={bookmark} />
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
