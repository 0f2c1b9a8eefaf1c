import { memo } from 'react';
import { Link } from 'react-router';
import type { Bookmark, BookmarkState } from '../../../../contract/bookmarks.ts';
import { TextSnippet } from '../../components/text-snippet.tsx';
import { formatDateTime } from '../../lib/format-date.ts';
import { KeptCopy } from './kept-copy.tsx';
import { TagChips } from './tag-chips.tsx';
import type { CardCopy } from './use-kept-copies.ts';
import './bookmarks.css';

function DetailIcon() {
  return (
    <svg viewBox="0 0 16 16" width="1em" height="1em" aria-hidden="true" focusable="false">
      <rect x="2" y="1.5" width="12" height="13" rx="1.5" fill="none" stroke="currentColor" strokeWidth="1.5" />
      <path d="M5 5h6M5 8h6M5 11h4" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" />
    </svg>
  );
}

/** The site a bookmark's page is on, as the server groups it: the host without "www.". */
const siteOf = (link: string) => (URL.canParse(link) ? new URL(link).hostname.replace(/^www\./, '') : link);

interface BookmarkCardProps {
  bookmark: Bookmark;
  /** Given on the list, where bookmarks are selected for a bulk edit. */
  onSelect?: ((id: number, selected: boolean) => void) | undefined;
  selected?: boolean;
  /** Read later: given where the card may mark its bookmark read, unread, archived or back from the archive. */
  onState?: ((id: number, state: BookmarkState) => void) | undefined;
  /** Given where the copies are known (the list and the search): the card's kept copy, and who asks again after a change. */
  keptCopy?: CardCopy | undefined;
  /** Given where the search found the bookmark by its kept page's text: the words around. */
  snippet?: string | undefined;
}

/** The card's read-later buttons: the state each leads to, and its words. */
function stateButtons(state: BookmarkState): Array<{ to: BookmarkState; label: string }> {
  if (state === 'archived') return [{ to: 'read', label: 'Unarchive' }];
  return [state === 'unread' ? { to: 'read', label: 'Mark read' } : { to: 'unread', label: 'Mark unread' }, { to: 'archived', label: 'Archive' }];
}

const STATE_BADGES: Partial<Record<BookmarkState, string>> = { unread: 'Unread', archived: 'Archived' };

/** Bookmark list card (docs/behaviour/bookmarks.md), with the bookmark's tags as chips. */
export const BookmarkCard = memo(function BookmarkCard({ bookmark, onSelect, selected = false, onState, keptCopy, snippet }: BookmarkCardProps) {
  const badge = STATE_BADGES[bookmark.state];
  return (
    <article className="card mb-2 bookmark-card" data-id={bookmark.id} data-state={bookmark.state}>
      <div className="card-body py-2">
        <h3 className="h6 card-title mb-1 d-flex gap-2 align-items-baseline">
          {onSelect && (
            <input
              type="checkbox"
              className="form-check-input flex-shrink-0"
              aria-label={`Select ${bookmark.title}`}
              checked={selected}
              onChange={(event) => onSelect(bookmark.id, event.target.checked)}
            />
          )}
          <a href={bookmark.link} target="_blank" rel="noopener noreferrer" className="text-break">
            {bookmark.title}
          </a>
          <Link to={`/bookmark/${bookmark.id}`} className="ms-auto" aria-label={`Details of ${bookmark.title}`} title="Details">
            <DetailIcon />
          </Link>
        </h3>
        <div className="small text-muted">
          {badge && <span className="badge text-bg-secondary me-1 bookmark-state">{badge}</span>}
          <span className="bookmark-host">{siteOf(bookmark.link)}</span>
          {` · Create: ${formatDateTime(bookmark.create_date)}, Update: ${formatDateTime(bookmark.update_date)}`}
        </div>
        {bookmark.note !== undefined && <p className="small mb-0 mt-1 bookmark-note bookmark-note-start">{bookmark.note}</p>}
        <TagChips tags={bookmark.tags} />
        {snippet !== undefined && <TextSnippet snippet={snippet} label="Found in the kept page's text" className="bookmark-snippet" />}
        {keptCopy && <KeptCopy bookmarkId={bookmark.id} archive={keptCopy.archive} known={keptCopy.known} onChanged={keptCopy.onChanged} />}
        {onState && (
          <div className="d-flex gap-1 mt-1 bookmark-state-buttons">
            {stateButtons(bookmark.state).map(({ to, label }) => (
              <button
                key={label}
                type="button"
                className="btn btn-sm btn-outline-secondary py-0"
                aria-label={`${label}: ${bookmark.title}`}
                onClick={() => onState(bookmark.id, to)}
              >
                {label}
              </button>
            ))}
          </div>
        )}
      </div>
    </article>
  );
});
