import { skipToken } from '@reduxjs/toolkit/query';
import { useEffect, useState } from 'react';
import { type Bookmark, isHttpUrl } from '../../../../contract/bookmarks.ts';
import { useLookupBookmarkQuery } from './bookmarks.api.ts';

/** Typing pauses this long before the link is looked up, so that each keystroke is not a request. */
const PAUSE_MS = 300;

/**
 * The user's bookmark of this link, compared as the server normalises links; null while there is
 * none, or while the link is still being typed or looked up. A failed lookup only leaves the
 * notice out: it must not stand in the way of saving.
 */
export function useAlreadySaved(link: string): Bookmark | null {
  const wanted = link.trim();
  const [paused, setPaused] = useState<string | null>(null);

  useEffect(() => {
    if (!isHttpUrl(wanted)) return;
    const timer = setTimeout(() => setPaused(wanted), PAUSE_MS);
    return () => clearTimeout(timer);
  }, [wanted]);

  const { currentData } = useLookupBookmarkQuery(paused === wanted ? wanted : skipToken);
  return paused === wanted ? (currentData?.bookmark ?? null) : null;
}
