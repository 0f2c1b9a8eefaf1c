import { useSelector } from 'react-redux';
import { Navigate, Outlet, useLocation } from 'react-router';
import { selectAuth } from '../features/auth/auth.slice.ts';
import type { RequestedPage } from '../features/auth/requested-page.ts';
import { TemporaryPasswordPage } from '../features/auth/temporary-password-page.tsx';

/**
 * Sends a signed-out visitor to /login, remembering the page asked for so that sign-in leads there;
 * a user with a temporary password sees its change instead of any page until it is replaced.
 */
export function RequireAuth() {
  const auth = useSelector(selectAuth);
  const { pathname, search, hash } = useLocation();
  if (auth.authenticated) return auth.passwordChangeRequired ? <TemporaryPasswordPage /> : <Outlet />;
  const requested: RequestedPage = { from: pathname + search + hash };
  return <Navigate to="/login" replace state={requested} />;
}
