import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { Link } from 'react-router';
import { PasswordResetBody } from '../../../../contract/auth.ts';
import { TextField } from '../../components/text-field.tsx';
import { describeIssues, useCheckedSubmit } from '../../lib/use-checked-submit.ts';
import { useRequestPasswordResetMutation } from './auth.api.ts';

const LABELS = { email: 'E-mail' } as const;

/** "Forgot your password?": asks for a reset link by mail (offered only when the server can send one). */
export function ForgotPasswordPage() {
  const [requestPasswordReset] = useRequestPasswordResetMutation();
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  const { submit, busy, error } = useCheckedSubmit(PasswordResetBody, (problems) => describeIssues(problems, LABELS));

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void submit({ email }, async (body) => setSent((await requestPasswordReset(body.email).unwrap()).message));
  }

  return (
    <section id="forgot-password" className="mx-auto" style={{ maxWidth: '28rem' }}>
      <h1 className="h3 mb-3">Forgot your password?</h1>
      {sent !== null ? (
        <Alert variant="success">{sent}</Alert>
      ) : (
        <Form noValidate onSubmit={onSubmit} aria-label="Reset password">
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
