import { useState } from 'react';
import Form from 'react-bootstrap/Form';
import ListGroup from 'react-bootstrap/ListGroup';
import { Link } from 'react-router';
import { foldTag } from '../../../../contract/bookmarks.ts';
import { errorMessage } from '../../api/api-error.ts';
import { LoadingSpinner } from '../../components/loading-spinner.tsx';
import { OperationError } from '../../components/operation-error.tsx';
import { useTagsQuery } from './bookmarks.api.ts';
import { tagListLink } from './tag-chips.tsx';

/** Every tag with its count, most used first; the filter box keeps the tags holding what is typed, in any case. */
export function BookmarkTagsPage() {
  const { data: tags, error, isFetching: busy } = useTagsQuery();
  const [filter, setFilter] = useState('');
  const problem = error === undefined ? null : errorMessage(error);

  const wanted = foldTag(filter.trim());
  const shown = (tags ?? []).filter((tag) => foldTag(tag.tag).includes(wanted));
  return (
    <section id="bookmark-tags">
      <h1 className="h4 mb-3">Tags</h1>
      <OperationError message={problem} />
      <Form.Control
        type="search"
        className="mb-3"
        aria-label="Filter tags"
        placeholder="Filter tags"
        value={filter}
        onChange={(event) => setFilter(event.target.value)}
      />
      {busy && <LoadingSpinner />}
      {tags !== undefined && shown.length === 0 && <p>{tags.length === 0 ? 'No tag yet' : 'No tag matches'}</p>}
      <ListGroup>
        {shown.map(({ tag, count }) => (
          <ListGroup.Item key={tag} action as={Link} to={tagListLink(tag)} className="d-flex justify-content-between tag-count">
            <span className="text-break">{tag}</span>
            <span className="badge text-bg-secondary rounded-pill align-self-center">{count}</span>
          </ListGroup.Item>
        ))}
      </ListGroup>
    </section>
  );
}
