import { useEffect } from 'react';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import { useSelector } from 'react-redux';
import { Link, useParams } from 'react-router';
import { type Bookmark, splitTags } from '../../../../contract/bookmarks.ts';
import { useApiClient } from '../../api/api-client-context.ts';
import { LoadingSpinner } from '../../components/loading-spinner.tsx';
import { formatDate } from './format-date.ts';
import { InlineField } from './inline-field.tsx';
import { selectBookmarks, useBookmarksDispatch } from './bookmarks.slice.ts';
import { indexCurrent, openBookmark, saveBookmark } from './bookmarks.thunks.ts';
import { useBusy } from './use-busy.ts';

/** Spec §2 Bookmark detail. */
export function BookmarkDetailPage() {
  const { id: idText = '' } = useParams();
  const id = Number(idText);
  const client = useApiClient();
  const dispatch = useBookmarksDispatch();
  const { bookmarks, curBookmark, operationError } = useSelector(selectBookmarks);
  const [busy, run] = useBusy();

  useEffect(() => {
    if (Number.isSafeInteger(id) && id > 0) void run(() => dispatch(openBookmark(client, id)));
  }, [client, dispatch, run, id]);

  const at = bookmarks.findIndex((bookmark) => bookmark.id === id);
  const prev = at > 0 ? bookmarks[at - 1] : undefined;
  const next = at >= 0 ? bookmarks[at + 1] : undefined;
  const bookmark = curBookmark?.id === id ? curBookmark : null;

  return (
    <section id="bookmark-detail">
      <nav className="d-flex gap-2 mb-3" aria-label="Bookmark navigation">
        {prev && (
          <Link className="btn btn-outline-primary" to={`/bookmark/${prev.id}`}>
            Previous
          </Link>
        )}
        {next && (
          <Link className="btn btn-outline-primary" to={`/bookmark/${next.id}`}>
            Next
          </Link>
        )}
      </nav>
      {operationError !== null && (
        <Alert variant="danger" className="py-2 operation-error">
          {operationError}
        </Alert>
      )}
      {bookmark !== null && <BookmarkDetails bookmark={bookmark} />}
      {bookmark === null && busy && <LoadingSpinner />}
      {bookmark === null && !busy && <Alert variant="warning">{`No bookmark found with id ${idText}`}</Alert>}
    </section>
  );
}

function BookmarkDetails({ bookmark }: { bookmark: Bookmark }) {
  const client = useApiClient();
  const dispatch = useBookmarksDispatch();
  const save = (change: Partial<Pick<Bookmark, 'title' | 'link' | 'tags' | 'note'>>) => dispatch(saveBookmark(client, { ...bookmark, ...change }));

  return (
    <article>
      <InlineField label="Title" value={bookmark.title} onSave={(title) => save({ title })} />
      <InlineField label="Link" value={bookmark.link} onSave={(link) => save({ link })} />
      <InlineField label="Tags" value={bookmark.tags.join(', ')} onSave={(tags) => save({ tags: splitTags(tags) })} />
      <InlineField label="Note" value={bookmark.note ?? ''} multiline onSave={(note) => save({ note: note.trim() === '' ? undefined : note })} />
      <p className="small text-muted mb-2">{`Create: ${formatDate(bookmark.create_date)}, Update: ${formatDate(bookmark.update_date)}`}</p>
      {bookmark.indexed ? (
        <Badge bg="success">Indexed</Badge>
      ) : (
        <Button size="sm" onClick={() => void dispatch(indexCurrent(client, bookmark))}>
          Index
        </Button>
      )}
    </article>
  );
}
