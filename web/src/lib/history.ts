import { type Location, useLocation, useNavigate, useNavigationType } from 'react-router';

/**
 * The router numbers the history entries it makes (`idx` in `history.state`, 0 for the entry the
 * app was opened at, kept across reloads); an entry above 0 has one of the app's own before it.
 */
function hasAppEntryBefore(): boolean {
  const state = window.history.state as { idx?: unknown } | null;
  return typeof state?.idx === 'number' && state.idx > 0;
}

/**
 * Back to the page before, when it is one of the app's; otherwise — a page opened from a link
 * in a new tab, or typed — to `list`, in place of this page, so Back never leaves the app.
 */
export function useBack(list: string): () => void {
  const navigate = useNavigate();
  return () => void (hasAppEntryBefore() ? navigate(-1) : navigate(list, { replace: true }));
}

/** The location the document opened at, which a Back to it later finds as a new location object. */
let opening: Location | null = null;

/** The layout calls this first of all, so that later screens can tell a return from an opening. */
export function useRememberOpening(): void {
  const location = useLocation();
  opening ??= location;
}

/**
 * Whether the screen is shown again by Back or Forward within the app, so that it may keep what
 * it showed; false for a screen opened by a link, a menu, a typed address or a reload, which
 * loads afresh (a reload's first location is a POP too, hence the opening is told apart).
 */
export function useReturnVisit(): boolean {
  const location = useLocation();
  return useNavigationType() === 'POP' && location !== opening;
}
