import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { Link } from 'react-router';
import { PasswordResetBody } from '../../../../contract/auth.ts';
import { errorMessage } from '../../api/api-error.ts';
import { useApiClient } from '../../api/api-client-context.ts';
import { TextField } from '../../components/text-field.tsx';
import { requestPasswordReset } from './auth.api.ts';
import { describeIssues } from './use-sign-in.ts';

/** "Forgot your password?": asks for a reset link by mail (offered only when the server can send one). */
export function ForgotPasswordPage() {
  const client = useApiClient();
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = PasswordResetBody.safeParse({ email });
    if (!parsed.success) {
      setError(describeIssues(parsed.error, { email: 'E-mail' }));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      setSent(await requestPasswordReset(client, parsed.data.email));
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section id="forgot-password" className="mx-auto" style={{ maxWidth: '28rem' }}>
      <h1 className="h3 mb-3">Forgot your password?</h1>
      {sent !== null ? (
        <Alert variant="success">{sent}</Alert>
      ) : (
        <Form noValidate onSubmit={(event) => void onSubmit(event)} aria-label="Reset password">
          {error !== null && <Alert variant="danger">{error}</Alert>}
          <p>Give the e-mail of your account: a link to choose a new password is sent there.</p>
          <TextField id="email" label="E-mail" type="email" autoComplete="username" value={email} onChange={setEmail} />
          <Button type="submit" disabled={busy}>
            Send the link
          </Button>
        </Form>
      )}
      <Link to="/login" className="btn btn-link px-0 mt-2">
        Back to sign-in
      </Link>
    </section>
  );
}
