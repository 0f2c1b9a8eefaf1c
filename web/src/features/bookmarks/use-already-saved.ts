import { useEffect, useState } from 'react';
import { type Bookmark, isHttpUrl } from '../../../../contract/bookmarks.ts';
import { useApiClient } from '../../api/api-client-context.ts';
import { lookupBookmark } from './bookmarks.api.ts';

/** Typing pauses this long before the link is looked up, so that each keystroke is not a request. */
const PAUSE_MS = 300;

/**
 * The user's bookmark of this link, compared as the server normalises links; null while there is
 * none, or while the link is still being typed or looked up. A failed lookup only leaves the
 * notice out: it must not stand in the way of saving.
 */
export function useAlreadySaved(link: string): Bookmark | null {
  const client = useApiClient();
  const wanted = link.trim();
  const [found, setFound] = useState<{ link: string; bookmark: Bookmark | null } | null>(null);

  useEffect(() => {
    if (!isHttpUrl(wanted)) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      lookupBookmark(client, wanted, controller.signal).then(
        (bookmark) => setFound({ link: wanted, bookmark }),
        () => undefined,
      );
    }, PAUSE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [client, wanted]);

  return found?.link === wanted ? found.bookmark : null;
}
