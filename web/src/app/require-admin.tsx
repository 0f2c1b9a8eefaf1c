import { useSelector } from 'react-redux';
import { Navigate, Outlet } from 'react-router';
import { selectIsAdmin } from '../features/auth/auth.slice.ts';
import { DEFAULT_PAGE } from '../features/auth/requested-page.ts';

/** Inside RequireAuth: the administration's pages for administrators; anyone else is sent to the books. */
export function RequireAdmin() {
  return useSelector(selectIsAdmin) ? <Outlet /> : <Navigate to={DEFAULT_PAGE} replace />;
}
