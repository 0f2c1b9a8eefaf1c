import { type FormEvent, useCallback, useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useSelector } from 'react-redux';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { BOOKMARK_FIELD_VALUES, isHttpUrl, splitTags } from '../../../../contract/bookmarks.ts';
import { firstProblem } from '../../../../contract/field-labels.ts';
import { errorMessage } from '../../api/api-error.ts';
import { useApiDispatch } from '../../api/api.ts';
import { LoadingSpinner } from '../../components/loading-spinner.tsx';
import { OperationError } from '../../components/operation-error.tsx';
import { useUploadPageMutation } from './bookmark-archive.api.ts';
import { useCapturedPage } from './bookmark-capture.ts';
import { type BookmarkFields, prefilledFields } from './bookmark-prefill.ts';
import { usePreviewPageMutation } from './bookmarks.api.ts';
import { selectBookmarks, useBookmarksDispatch } from './bookmarks.slice.ts';
import { createAndIndex } from './bookmarks.thunks.ts';
import { useAlreadySaved } from './use-already-saved.ts';

/** The contract's own words for a field that is given but would be refused (a link that is not a web address, say). */
function fieldProblem(name: keyof BookmarkFields, value: string): string[] {
  const parsed = BOOKMARK_FIELD_VALUES[name].safeParse(value);
  return parsed.success ? [] : [firstProblem(name, parsed.error.issues)!];
}

/** Bookmark create (docs/behaviour/bookmarks.md): the form's own messages for the required fields, then the contract's rules for each field given. */
function problems(fields: BookmarkFields): string[] {
  return [
    ...(fields.title.trim() === '' ? ['title is required'] : fieldProblem('title', fields.title)),
    ...(fields.link.trim() === '' ? ['link is required'] : fieldProblem('link', fields.link)),
    ...fieldProblem('tags', fields.tags),
    ...fieldProblem('note', fields.note),
  ];
}

/**
 * Bookmark create (docs/behaviour/bookmarks.md): on success, the new bookmark's page. The address may fill the form in
 * (the bookmarklet's popup); a link given without a title takes the page's title and description,
 * read by the server; a link the user has saved already is pointed out, not refused.
 */
export function BookmarkCreatePage() {
  const calls = useApiDispatch();
  const dispatch = useBookmarksDispatch();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { operationError } = useSelector(selectBookmarks);
  const [fields, setFields] = useState<BookmarkFields>(() => prefilledFields(params));
  const [shown, setShown] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [previewPage, { isLoading: reading }] = usePreviewPageMutation();
  const [readProblem, setReadProblem] = useState<string | null>(null);
  const saved = useAlreadySaved(fields.link);
  /** A field changed: the problems shown that it solves go at once; new ones wait for Create. */
  const set = (name: keyof BookmarkFields) => (event: { target: { value: string } }) => {
    const next = { ...fields, [name]: event.target.value };
    setFields(next);
    if (shown.length > 0) {
      const left = problems(next);
      setShown(shown.filter((problem) => left.includes(problem)));
    }
  };

  /** Fills the title and note that are still empty from the page itself. */
  const readPage = useCallback(
    (link: string) => {
      if (!isHttpUrl(link.trim())) return;
      previewPage(link.trim())
        .unwrap()
        .then(
          (page) => {
            setReadProblem(null);
            setFields((current) => ({ ...current, title: current.title || page.title, note: current.note || page.note }));
          },
          (error: unknown) => setReadProblem(`The page could not be read: ${errorMessage(error)}`),
        );
    },
    [previewPage],
  );

  // Opened with a link and no title (a link shared from elsewhere): the page gives the title, once.
  const [openedWith] = useState(fields);
  const captured = useCapturedPage(params.get('capture') === '1', openedWith.link);
  const [uploadPage] = useUploadPageMutation();
  useEffect(() => {
    if (openedWith.link !== '' && openedWith.title === '') readPage(openedWith.link);
  }, [openedWith, readPage]);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = problems(fields);
    setShown(found);
    if (found.length > 0) return;
    const note = fields.note.trim();
    setBusy(true);
    void (async () => {
      const id = await dispatch(
        createAndIndex(calls, { title: fields.title.trim(), link: fields.link.trim(), tags: splitTags(fields.tags), ...(note === '' ? {} : { note }) }),
      );
      // The page the browser sent is kept in place of the server's fetch; should it be refused, the fetch's copy stays.
      if (id !== null && captured !== null) await uploadPage({ id, html: new Blob([captured], { type: 'text/html' }) });
      setBusy(false);
      if (id !== null) await navigate(`/bookmark/${id}`);
    })();
  }

  return (
    <section id="bookmark-create">
      <h1 className="h4 mb-3">New bookmark</h1>
      <Form noValidate onSubmit={submit}>
        <Form.Group className="mb-3" controlId="bookmark-title">
          <Form.Label>Title</Form.Label>
          <Form.Control value={fields.title} onChange={set('title')} />
        </Form.Group>
        <Form.Group className="mb-3" controlId="bookmark-link">
          <Form.Label>Link</Form.Label>
          <Form.Control
            type="url"
            value={fields.link}
            onChange={set('link')}
            onBlur={() => {
              if (fields.title.trim() === '') readPage(fields.link);
            }}
          />
          <div className="d-flex flex-wrap align-items-center gap-2 mt-1">
            <Button variant="link" size="sm" className="p-0" disabled={!isHttpUrl(fields.link.trim()) || reading} onClick={() => readPage(fields.link)}>
              Read title and description from the page
            </Button>
            {reading && <LoadingSpinner />}
          </div>
          {readProblem !== null && <p className="text-secondary small mb-0" id="bookmark-read-problem">{readProblem}</p>}
          {saved !== null && (
            <p className="text-warning-emphasis mb-0" id="bookmark-already-saved" role="status">
              {'Already saved: '}
              <Link to={`/bookmark/${saved.id}`}>{saved.title}</Link>
            </p>
          )}
        </Form.Group>
        <Form.Group className="mb-3" controlId="bookmark-tags">
          <Form.Label>Tags</Form.Label>
          <Form.Control value={fields.tags} onChange={set('tags')} />
        </Form.Group>
        <Form.Group className="mb-3" controlId="bookmark-note">
          <Form.Label>Note</Form.Label>
          <Form.Control as="textarea" rows={3} value={fields.note} onChange={set('note')} />
        </Form.Group>
        {shown.map((problem) => (
          <p key={problem} className="text-danger mb-1 validation-message">
            {problem}
          </p>
        ))}
        {captured !== null && (
          <p className="text-muted small" id="bookmark-page-captured">
            The page as your browser shows it is kept with the bookmark.
          </p>
        )}
        <OperationError message={operationError} />
        <Button type="submit" disabled={busy}>
          Create
        </Button>
        {busy && <LoadingSpinner />}
      </Form>
    </section>
  );
}
