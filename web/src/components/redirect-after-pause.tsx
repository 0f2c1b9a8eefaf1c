import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';

/** Long enough to read a one-line message such as 'Welcome Ada' before the page moves on. */
const REDIRECT_PAUSE_MS = 1000;

export function RedirectAfterPause({ to }: { to: string }): null {
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  useEffect(() => {
    const timer = setTimeout(() => {
      // A link clicked during the pause has already moved the address on, though this page stays
      // shown until the next page's code arrives: the user's choice wins over the pause.
      const shown = window.location.pathname === pathname && window.location.search === search;
      if (shown) void navigate(to, { replace: true });
    }, REDIRECT_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [navigate, to, pathname, search]);
  return null;
}
