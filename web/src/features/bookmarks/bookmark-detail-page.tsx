import { type ReactNode, useEffect, useMemo, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useSelector } from 'react-redux';
import { Link, useNavigate, useParams } from 'react-router';
import { type Bookmark, BOOKMARK_FIELD_VALUES, splitTags } from '../../../../contract/bookmarks.ts';
import { FIELD_LABELS, firstProblem } from '../../../../contract/field-labels.ts';
import { useApiDispatch, useCallsUnderWay } from '../../api/api.ts';
import { BackButton } from '../../components/back-button.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { EditButton } from '../../components/edit-button.tsx';
import { EditableField } from '../../components/editable-field.tsx';
import { LoadingSpinner } from '../../components/loading-spinner.tsx';
import { OperationError } from '../../components/operation-error.tsx';
import { formatDateTime } from '../../lib/format-date.ts';
import { selectBookmarks, useBookmarksDispatch } from './bookmarks.slice.ts';
import { deleteBookmarks, indexCurrent, openBookmark, saveBookmark } from './bookmarks.thunks.ts';
import { KeptCopy } from './kept-copy.tsx';
import { TagChips } from './tag-chips.tsx';
import { useKeptCopies } from './use-kept-copies.ts';
import './bookmarks.css';

/** Bookmark detail (docs/behaviour/bookmarks.md). */
export function BookmarkDetailPage() {
  const { id: idText = '' } = useParams();
  const id = Number(idText);
  const calls = useApiDispatch();
  const dispatch = useBookmarksDispatch();
  const { bookmarks, curBookmark, operationError } = useSelector(selectBookmarks);
  const busy = useCallsUnderWay('bookmark', 'isIndexed');
  const valid = Number.isSafeInteger(id) && id > 0;
  // The id found missing: one warning for one missing bookmark, and none while another loads.
  const [missing, setMissing] = useState<number | null>(null);

  useEffect(() => {
    if (!valid) return;
    const leave = new AbortController();
    void dispatch(openBookmark(calls, id, leave.signal)).then((gone) => gone && setMissing(id));
    return () => leave.abort();
  }, [calls, dispatch, id, valid]);

  const at = bookmarks.findIndex((bookmark) => bookmark.id === id);
  const prev = at > 0 ? bookmarks[at - 1] : undefined;
  const next = at >= 0 ? bookmarks[at + 1] : undefined;
  const bookmark = curBookmark?.id === id ? curBookmark : null;

  return (
    <section id="bookmark-detail">
      <nav className="d-flex gap-2 mb-3" aria-label="Bookmark navigation">
        <BackButton list="/bookmark" />
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
      <h1 className="h4 mb-3 text-break">{bookmark?.title ?? 'Bookmark'}</h1>
      <OperationError message={operationError} />
      {bookmark !== null && <BookmarkDetails bookmark={bookmark} />}
      {bookmark === null && busy && <LoadingSpinner />}
      {bookmark === null && !busy && (!valid || missing === id) && <Alert variant="warning">{`No bookmark found with id ${idText}`}</Alert>}
    </section>
  );
}

function BookmarkDetails({ bookmark }: { bookmark: Bookmark }) {
  const calls = useApiDispatch();
  const dispatch = useBookmarksDispatch();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const save = (change: Partial<Pick<Bookmark, 'title' | 'link' | 'tags' | 'note'>>) => dispatch(saveBookmark(calls, { ...bookmark, ...change }));
  const shown = useMemo(() => [bookmark], [bookmark]);
  const keptCopy = useKeptCopies(shown)(bookmark.id);

  async function confirmDelete() {
    setDeleting(true);
    const deleted = await dispatch(deleteBookmarks(calls, [bookmark.id]));
    setDeleting(false);
    setConfirming(false);
    if (deleted) void navigate('/bookmark');
  }

  return (
    <article>
      <BookmarkField name="title" value={bookmark.title} show={() => <PageLink link={bookmark.link} text={bookmark.title} />} onSave={(title) => save({ title })} />
      <BookmarkField name="link" value={bookmark.link} show={(link) => <PageLink link={link} text={link} />} onSave={(link) => save({ link })} />
      <BookmarkField
        name="tags"
        value={bookmark.tags.join(', ')}
        show={() => (bookmark.tags.length === 0 ? none : <TagChips tags={bookmark.tags} />)}
        onSave={(tags) => save({ tags: splitTags(tags) })}
      />
      <BookmarkField
        name="note"
        value={bookmark.note ?? ''}
        multiline
        show={(note) => (note === '' ? none : <span className="bookmark-field-text">{note}</span>)}
        onSave={(note) => save({ note: note.trim() === '' ? undefined : note })}
      />
      <p className="small text-muted mb-2">{`Create: ${formatDateTime(bookmark.create_date)}, Update: ${formatDateTime(bookmark.update_date)}`}</p>
      {keptCopy && <KeptCopy bookmarkId={bookmark.id} archive={keptCopy.archive} known={keptCopy.known} onChanged={keptCopy.onChanged} />}
      <div className="d-flex align-items-center gap-2">
        {bookmark.indexed ? (
          <Badge bg="success">Indexed</Badge>
        ) : (
          <Button size="sm" onClick={() => void dispatch(indexCurrent(calls, bookmark))}>
            Index
          </Button>
        )}
        <Button size="sm" variant="outline-danger" className="ms-auto" onClick={() => setConfirming(true)}>
          Delete
        </Button>
      </div>
      <ConfirmDialog
        show={confirming}
        title="Delete this bookmark?"
        body={`“${bookmark.title}” and its search index entry will be deleted. This cannot be undone.`}
        confirm="Delete"
        busy={deleting}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setConfirming(false)}
      />
    </article>
  );
}

const none = <em className="text-muted">(none)</em>;

/** The page itself, opened in a new tab as from the list's cards. */
function PageLink({ link, text }: { link: string; text: string }) {
  return (
    <a href={link} target="_blank" rel="noopener noreferrer" className="text-break">
      {text}
    </a>
  );
}

interface BookmarkFieldProps {
  name: 'title' | 'link' | 'tags' | 'note';
  /** The text shown, and the editor's starting value. */
  value: string;
  multiline?: boolean;
  /** The value as the page shows it: the title and link open the page, the tags are chips. */
  show: (value: string) => ReactNode;
  onSave: (value: string) => Promise<boolean>;
}

/**
 * One inline-editable field under its label (docs/behaviour/bookmarks.md), opened by the pencil beside
 * it: the value does what it looks like (a link opens the page, a tag lists its bookmarks) rather
 * than turn into an editor (issue 37). Its draft is checked with the contract's rule for the field
 * before it is sent (tags as text, split as on create).
 */
function BookmarkField({ name, value, multiline = false, show, onSave }: BookmarkFieldProps) {
  const id = `bookmark-${name}`;
  const label = FIELD_LABELS[name]!;
  const check = (draft: string) => {
    const parsed = BOOKMARK_FIELD_VALUES[name].safeParse(draft);
    return parsed.success ? null : firstProblem(name, parsed.error.issues);
  };
  return (
    <div className="mb-2">
      <span className="text-muted small d-block">{label}</span>
      <EditableField
        id={id}
        label={label}
        value={value}
        show={show}
        editor={(draft, setDraft, inputId) => (
          <Form.Control
            id={inputId}
            aria-label={label}
            {...(multiline ? { as: 'textarea', rows: 3 } : {})}
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
          />
        )}
        display={(shown, edit) => (
          <div className="d-flex align-items-baseline gap-2">
            <div id={id} className="text-break">
              {show(shown)}
            </div>
            <EditButton id={`${id}-edit`} label={`Edit ${label}`} onClick={edit} />
          </div>
        )}
        check={check}
        onSave={onSave}
      />
    </div>
  );
}
