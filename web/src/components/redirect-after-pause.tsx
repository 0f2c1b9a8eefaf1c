import { useEffect } from 'react';
import { useNavigate } from 'react-router';

/** Long enough to read a one-line message such as 'Welcome Ada' before the page moves on. */
const REDIRECT_PAUSE_MS = 1000;

export function RedirectAfterPause({ to }: { to: string }): null {
  const navigate = useNavigate();
  useEffect(() => {
    const timer = setTimeout(() => void navigate(to, { replace: true }), REDIRECT_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [navigate, to]);
  return null;
}
