import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { useDispatch, useSelector } from 'react-redux';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../api/api-error.ts';
import { RedirectAfterPause } from '../../components/redirect-after-pause.tsx';
import { useLogOutMutation } from './auth.api.ts';
import { selectAuth, signedOut } from './auth.slice.ts';

export function LogoutPage() {
  const { authenticated } = useSelector(selectAuth);
  return (
    <section id="logout">
      <h1 className="h4 mb-3">Log out</h1>
      {authenticated ? (
        <LogoutButton />
      ) : (
        <>
          <p>you are not in yet</p>
          <RedirectAfterPause to="/login" />
        </>
      )}
    </section>
  );
}

function LogoutButton() {
  const dispatch = useDispatch();
  const [logOut] = useLogOutMutation();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function logOutNow() {
    setBusy(true);
    setError(null);
    try {
      await logOut().unwrap();
      dispatch(signedOut());
      await navigate('/login', { replace: true });
    } catch (failure) {
      // The session lives on at the server until this call succeeds, so the user stays signed in to retry.
      setError(errorMessage(failure));
      setBusy(false);
    }
  }

  return (
    <>
      {error !== null && <Alert variant="danger">{error}</Alert>}
      <Button onClick={() => void logOutNow()} disabled={busy}>
        Logout
      </Button>
    </>
  );
}
