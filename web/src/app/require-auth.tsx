import { useSelector } from 'react-redux';
import { Navigate, Outlet, useLocation } from 'react-router';
import { selectAuth } from '../features/auth/auth.slice.ts';
import type { RequestedPage } from '../features/auth/requested-page.ts';

/** Sends a signed-out visitor to /login, remembering the page asked for so that sign-in leads there. */
export function RequireAuth() {
  const { authenticated } = useSelector(selectAuth);
  const { pathname, search, hash } = useLocation();
  if (authenticated) return <Outlet />;
  const requested: RequestedPage = { from: pathname + search + hash };
  return <Navigate to="/login" replace state={requested} />;
}
