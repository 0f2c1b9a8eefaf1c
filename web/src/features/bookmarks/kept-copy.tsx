import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { Link } from 'react-router';
import { type BookmarkArchive, readingMinutes } from '../../../../contract/bookmark-archives.ts';
import { failureOf } from '../../api/api.ts';
import { useKeepCopyMutation } from './bookmark-archive.api.ts';

interface KeptCopyProps {
  bookmarkId: number;
  /** The bookmark's copy; undefined when none was ever asked for. */
  archive: BookmarkArchive | undefined;
  /** False until the copies are read: the line keeps its place, empty, so that the card does not grow under a restored scroll. */
  known: boolean;
  /** Told when "Keep a copy" or "Retry" has started a fetch, so that the list asks again. */
  onChanged: () => void;
}

/**
 * A card's line about its kept copy (docs/behaviour/bookmarks.md, "Kept copies"): "Read" and the
 * reading time when there is one; while it is fetched, that; when the fetch failed, why, with
 * "Retry"; with no copy, "Keep a copy".
 */
export function KeptCopy({ bookmarkId, archive, known, onChanged }: KeptCopyProps) {
  const [keepCopy, { isLoading }] = useKeepCopyMutation();
  const [error, setError] = useState<string | null>(null);

  function keep() {
    setError(null);
    keepCopy(bookmarkId)
      .unwrap()
      .then(onChanged, (failure: unknown) => setError(failureOf(failure).message));
  }

  const readable = archive !== undefined && archive.kept_at !== null;
  const action = (label: string) => (
    <Button variant="link" size="sm" className="p-0 align-baseline kept-copy-action" onClick={keep} disabled={isLoading}>
      {label}
    </Button>
  );
  if (!known) {
    return (
      <div className="small mt-1 kept-copy" aria-hidden="true">
        {'\u00a0'}
      </div>
    );
  }
  return (
    <div className="small mt-1 d-flex flex-wrap gap-2 align-items-baseline kept-copy" data-status={archive?.status ?? 'none'}>
      {readable && (
        <>
          <Link to={`/bookmark/${bookmarkId}/read`} className="kept-copy-read">
            Read
          </Link>
          <span className="text-muted kept-copy-time">{readingMinutes(archive.words)} min read</span>
        </>
      )}
      {archive?.status === 'pending' && <span className="text-muted">Keeping a copy…</span>}
      {archive?.status === 'failed' && (
        <>
          <span className="text-danger kept-copy-failure">Could not keep a copy: {archive.failure}</span>
          {action('Retry')}
        </>
      )}
      {archive === undefined && action('Keep a copy')}
      {error !== null && <span className="text-danger">{error}</span>}
    </div>
  );
}
