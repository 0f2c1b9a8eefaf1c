import { useEffect } from 'react';
import { useMatches } from 'react-router';

const APP_NAME = 'Organiser';

/** What a route tells the layout about itself, in its `handle`. */
interface RouteHandle {
  title: string;
}

/** A route's handle giving its title: the page's name, as the tab and the history list show it. */
export const titled = (title: string): RouteHandle => ({ title });

function isRouteHandle(handle: unknown): handle is RouteHandle {
  return typeof handle === 'object' && handle !== null && typeof (handle as { title?: unknown }).title === 'string';
}

/** Names the document after the deepest route that has a title: "Bookmarks — Organiser". */
export function DocumentTitle() {
  const title = useMatches()
    .map((match) => match.handle)
    .filter(isRouteHandle)
    .at(-1)?.title;
  useEffect(() => {
    document.title = title === undefined ? APP_NAME : `${title} — ${APP_NAME}`;
  }, [title]);
  return null;
}
