import { type FormEvent, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useSelector } from 'react-redux';
import { useNavigate } from 'react-router';
import { BOOKMARK_FIELD_VALUES, splitTags } from '../../../../contract/bookmarks.ts';
import { firstProblem } from '../../../../contract/field-labels.ts';
import { useApiClient } from '../../api/api-client-context.ts';
import { LoadingSpinner } from '../../components/loading-spinner.tsx';
import { OperationError } from '../../components/operation-error.tsx';
import { useRequest } from '../../lib/use-request.ts';
import { selectBookmarks, useBookmarksDispatch } from './bookmarks.slice.ts';
import { createAndIndex } from './bookmarks.thunks.ts';

type Fields = { title: string; link: string; tags: string; note: string };

/** The contract's own words for a field that is given but would be refused (a link that is not a web address, say). */
function fieldProblem(name: keyof Fields, value: string): string[] {
  const parsed = BOOKMARK_FIELD_VALUES[name].safeParse(value);
  return parsed.success ? [] : [firstProblem(name, parsed.error.issues)!];
}

/** Spec §5 Bookmark create: the spec's messages for the required fields, then the contract's rules for each field given. */
function problems(fields: Fields): string[] {
  return [
    ...(fields.title.trim() === '' ? ['title is required'] : fieldProblem('title', fields.title)),
    ...(fields.link.trim() === '' ? ['link is required'] : fieldProblem('link', fields.link)),
    ...fieldProblem('tags', fields.tags),
    ...fieldProblem('note', fields.note),
  ];
}

/** Spec §2 Bookmark create: on success, the new bookmark's page. */
export function BookmarkCreatePage() {
  const client = useApiClient();
  const dispatch = useBookmarksDispatch();
  const navigate = useNavigate();
  const { operationError } = useSelector(selectBookmarks);
  const [fields, setFields] = useState<Fields>({ title: '', link: '', tags: '', note: '' });
  const [shown, setShown] = useState<string[]>([]);
  const { busy, run } = useRequest();
  const set = (name: keyof Fields) => (event: { target: { value: string } }) => setFields({ ...fields, [name]: event.target.value });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = problems(fields);
    setShown(found);
    if (found.length > 0) return;
    const note = fields.note.trim();
    void run(async () => {
      const id = await dispatch(
        createAndIndex(client, { title: fields.title.trim(), link: fields.link.trim(), tags: splitTags(fields.tags), ...(note === '' ? {} : { note }) }),
      );
      if (id !== null) await navigate(`/bookmark/${id}`);
    });
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
          <Form.Control type="url" value={fields.link} onChange={set('link')} />
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
        <OperationError message={operationError} />
        <Button type="submit" disabled={busy}>
          Create
        </Button>
        {busy && <LoadingSpinner />}
      </Form>
    </section>
  );
}
