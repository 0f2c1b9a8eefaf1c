import Nav from 'react-bootstrap/Nav';
import { Link } from 'react-router';
import { BOOKMARK_STATES, type BookmarkState } from '../../../../contract/bookmarks.ts';

/** The list's read-later state from its address (`?state=unread`); none, or one not known, is every bookmark. */
export function stateOfParams(params: URLSearchParams): BookmarkState | undefined {
  const state = params.get('state');
  return BOOKMARK_STATES.find((known) => known === state);
}

/** Unread first: the reading list; All is the list of the specification, every bookmark. */
const TABS: Array<{ state: BookmarkState | undefined; label: string }> = [
  { state: 'unread', label: 'Unread' },
  { state: undefined, label: 'All' },
  { state: 'archived', label: 'Archived' },
];

/** The address of the list in `state`, keeping its other filters (tag, dates). */
function listAddress(params: URLSearchParams, state: BookmarkState | undefined): string {
  const next = new URLSearchParams(params);
  if (state) next.set('state', state);
  else next.delete('state');
  const query = next.toString();
  return query ? `/bookmark?${query}` : '/bookmark';
}

/** Read later (issue 39): the list's tabs, Unread / All / Archived. */
export function BookmarkStateTabs({ params }: { params: URLSearchParams }) {
  const current = stateOfParams(params);
  return (
    <Nav variant="tabs" className="mb-3" id="bookmark-state-tabs" as="ul">
      {TABS.map(({ state, label }) => (
        <Nav.Item as="li" key={label}>
          <Nav.Link as={Link} to={listAddress(params, state)} active={state === current} aria-current={state === current ? 'page' : undefined}>
            {label}
          </Nav.Link>
        </Nav.Item>
      ))}
    </Nav>
  );
}
