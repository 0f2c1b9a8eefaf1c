import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useDispatch } from 'react-redux';
import { Link } from 'react-router';
import { z } from 'zod';
import { Password, PASSWORD_MIN_LENGTH } from '../../../../contract/auth.ts';
import { errorMessage } from '../../api/api-error.ts';
import { useApiClient } from '../../api/api-client-context.ts';
import { TextField } from '../../components/text-field.tsx';
import { refreshSession, replaceTemporaryPassword } from './auth.api.ts';
import { signedIn } from './auth.slice.ts';
import { describeIssues } from './use-sign-in.ts';

const NewPassword = z.object({ password: Password });

/**
 * Shown instead of every page while the user holds a temporary password an administrator set: the
 * server refuses everything else until it is replaced. The token issued afterwards no longer says so.
 */
export function TemporaryPasswordPage() {
  const client = useApiClient();
  const dispatch = useDispatch();
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = NewPassword.safeParse({ password });
    if (!parsed.success) {
      setError(describeIssues(parsed.error, { password: 'New password' }));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await replaceTemporaryPassword(client, current, parsed.data.password);
      dispatch(signedIn(await refreshSession(client)));
    } catch (failure) {
      setError(errorMessage(failure));
      setBusy(false);
    }
  }

  return (
    <section id="temporary-password" className="mx-auto" style={{ maxWidth: '28rem' }}>
      <h1 className="h3 mb-3">Choose a new password</h1>
      <p>An administrator set a temporary password for your account. Choose your own before you go on.</p>
      <Form noValidate onSubmit={(event) => void onSubmit(event)} aria-label="Choose a new password">
        {error !== null && <Alert variant="danger">{error}</Alert>}
        <TextField id="current-password" label="Temporary password" type="password" autoComplete="current-password" value={current} onChange={setCurrent} />
        <TextField
          id="new-password"
          label="New password"
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={setPassword}
          hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
        />
        <Button type="submit" disabled={busy}>
          Save password
        </Button>
        <Link to="/logout" className="btn btn-link">
          Log out
        </Link>
      </Form>
    </section>
  );
}
