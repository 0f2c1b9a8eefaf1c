import { type ReactNode, useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useSelector } from 'react-redux';
import { Link, useNavigate, useParams } from 'react-router';
import { type Bookmark, BOOKMARK_FIELD_VALUES, splitTags } from '../../../../contract/bookmarks.ts';
import { FIELD_LABELS, firstProblem } from '../../../../contract/field-labels.ts';
import { useApiClient } from '../../api/api-client-context.ts';
import { BackButton } from '../../components/back-button.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { EditableField } from '../../components/editable-field.tsx';
import { LoadingSpinner } from '../../components/loading-spinner.tsx';
import { OperationError } from '../../components/operation-error.tsx';
import { formatDateTime } from '../../lib/format-date.ts';
import { useRequest } from '../../lib/use-request.ts';
import { selectBookmarks, useBookmarksDispatch } from './bookmarks.slice.ts';
import { deleteBookmarks, indexCurrent, openBookmark, saveBookmark } from './bookmarks.thunks.ts';
import { TagChips } from './tag-chips.tsx';
import './bookmarks.css';

/** Spec §2 Bookmark detail. */
export function BookmarkDetailPage() {
  const { id: idText = '' } = useParams();
  const id = Number(idText);
  const client = useApiClient();
  const dispatch = useBookmarksDispatch();
  const { bookmarks, curBookmark, operationError } = useSelector(selectBookmarks);
  const { busy, run, cancel } = useRequest();
  const valid = Number.isSafeInteger(id) && id > 0;
  // The id found missing: one warning for one missing bookmark, and none while another loads.
  const [missing, setMissing] = useState<number | null>(null);

  useEffect(() => {
    if (!valid) return;
    void run(async (signal) => {
      if (await dispatch(openBookmark(client, id, signal))) setMissing(id);
    });
    return cancel;
  }, [client, dispatch, run, cancel, id, valid]);

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
  const client = useApiClient();
  const dispatch = useBookmarksDispatch();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const save = (change: Partial<Pick<Bookmark, 'title' | 'link' | 'tags' | 'note'>>) => dispatch(saveBookmark(client, { ...bookmark, ...change }));

  async function confirmDelete() {
    setDeleting(true);
    const deleted = await dispatch(deleteBookmarks(client, [bookmark.id]));
    setDeleting(false);
    setConfirming(false);
    if (deleted) void navigate('/bookmark');
  }

  return (
    <article>
      <BookmarkField name="title" value={bookmark.title} onSave={(title) => save({ title })} />
      <BookmarkField name="link" value={bookmark.link} display={linkWithEdit} onSave={(link) => save({ link })} />
      <BookmarkField name="tags" value={bookmark.tags.join(', ')} onSave={(tags) => save({ tags: splitTags(tags) })} />
      <div className="mb-2">
        <TagChips tags={bookmark.tags} />
      </div>
      <BookmarkField name="note" value={bookmark.note ?? ''} multiline onSave={(note) => save({ note: note.trim() === '' ? undefined : note })} />
      <p className="small text-muted mb-2">{`Create: ${formatDateTime(bookmark.create_date)}, Update: ${formatDateTime(bookmark.update_date)}`}</p>
      <div className="d-flex align-items-center gap-2">
        {bookmark.indexed ? (
          <Badge bg="success">Indexed</Badge>
        ) : (
          <Button size="sm" onClick={() => void dispatch(indexCurrent(client, bookmark))}>
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

/** The link is a real link, opened in a new tab as on the list's cards, with an edit control of its own. */
function linkWithEdit(link: string, edit: () => void) {
  return (
    <span className="d-flex align-items-baseline gap-2">
      <a href={link} target="_blank" rel="noopener noreferrer" className="text-break" id="bookmark-link-open">
        {link}
      </a>
      <button type="button" id="bookmark-link" className="btn btn-sm btn-outline-secondary py-0" aria-label="Edit Link" title="Edit Link" onClick={edit}>
        Edit
      </button>
    </span>
  );
}

interface BookmarkFieldProps {
  name: 'title' | 'link' | 'tags' | 'note';
  /** The text shown, and the editor's starting value. */
  value: string;
  multiline?: boolean;
  display?: (value: string, edit: () => void) => ReactNode;
  onSave: (value: string) => Promise<boolean>;
}

/**
 * One inline-editable field under its label (spec §2 Bookmark detail). Its draft is checked with
 * the contract's rule for the field before it is sent (tags as text, split as the spec says).
 */
function BookmarkField({ name, value, multiline = false, display, onSave }: BookmarkFieldProps) {
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
        show={(text) => (text === '' ? <em className="text-muted">(none)</em> : <span className="bookmark-field-text">{text}</span>)}
        editor={(draft, setDraft, inputId) => (
          <Form.Control
            id={inputId}
            aria-label={label}
            {...(multiline ? { as: 'textarea', rows: 3 } : {})}
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
          />
        )}
        {...(display ? { display } : {})}
        check={check}
        onSave={onSave}
      />
    </div>
  );
}
