import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { Link, useSearchParams } from 'react-router';
import { PASSWORD_MIN_LENGTH, PasswordResetConfirmBody } from '../../../../contract/auth.ts';
import { errorMessage } from '../../api/api-error.ts';
import { useApiClient } from '../../api/api-client-context.ts';
import { TextField } from '../../components/text-field.tsx';
import { confirmPasswordReset } from './auth.api.ts';
import { describeIssues } from './use-sign-in.ts';

/** The page a reset link opens (`/reset-password?token=…`): the new password, then sign-in. */
export function ResetPasswordPage() {
  const client = useApiClient();
  const [params] = useSearchParams();
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = PasswordResetConfirmBody.safeParse({ token: params.get('token') ?? '', password });
    if (!parsed.success) {
      setError(describeIssues(parsed.error, { token: 'The link', password: 'New password' }));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await confirmPasswordReset(client, parsed.data);
      setDone(true);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section id="reset-password" className="mx-auto" style={{ maxWidth: '28rem' }}>
      <h1 className="h3 mb-3">Choose a new password</h1>
      {done ? (
        <Alert variant="success">
          Your password is changed, and every device signed in with the old one is signed out. <Link to="/login">Log in</Link>
        </Alert>
      ) : (
        <Form noValidate onSubmit={(event) => void onSubmit(event)} aria-label="Choose a new password">
          {error !== null && <Alert variant="danger">{error}</Alert>}
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
        </Form>
      )}
    </section>
  );
}
