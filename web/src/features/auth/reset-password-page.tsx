import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { Link, useSearchParams } from 'react-router';
import { END_OTHER_CREDENTIALS_LABEL, PasswordResetConfirmBody } from '../../../../contract/auth.ts';
import { NewPasswordField } from '../../components/password-fields.tsx';
import { describeIssues, useCheckedSubmit } from '../../lib/use-checked-submit.ts';
import { useConfirmPasswordResetMutation } from './auth.api.ts';

const LABELS = { token: 'The link', password: 'New password' } as const;

/**
 * The page a reset link opens (`/reset-password?token=…`): the new password, and whether to end
 * every API token, app password and the calendar address too (for whoever fears a break-in), then sign-in.
 */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const [confirmPasswordReset] = useConfirmPasswordResetMutation();
  const [password, setPassword] = useState('');
  const [endOtherCredentials, setEndOtherCredentials] = useState(false);
  const [done, setDone] = useState<{ otherCredentialsEnded: boolean } | null>(null);
  const { submit, busy, error } = useCheckedSubmit(PasswordResetConfirmBody, (problems) => describeIssues(problems, LABELS));

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    await submit({ token: params.get('token') ?? '', password, endOtherCredentials }, async (body) => {
      await confirmPasswordReset(body).unwrap();
      setDone({ otherCredentialsEnded: body.endOtherCredentials === true });
    });
  }

  return (
    <section id="reset-password" className="mx-auto" style={{ maxWidth: '28rem' }}>
      <h1 className="h3 mb-3">Choose a new password</h1>
      {done ? (
        <Alert variant="success">
          Your password is changed, and every device signed in with the old one is signed out.{' '}
          {done.otherCredentialsEnded && 'Your API tokens, app passwords and calendar address are ended too. '}
          <Link to="/login">Log in</Link>
        </Alert>
      ) : (
        <Form noValidate onSubmit={(event) => void onSubmit(event)} aria-label="Choose a new password">
          {error !== null && <Alert variant="danger">{error}</Alert>}
          <NewPasswordField value={password} onChange={setPassword} />
          <Form.Check
            type="checkbox"
            id="reset-end-other-credentials"
            className="mb-3"
            label={END_OTHER_CREDENTIALS_LABEL}
            checked={endOtherCredentials}
            onChange={(event) => setEndOtherCredentials(event.target.checked)}
          />
          <Button type="submit" disabled={busy}>
            Save password
          </Button>
        </Form>
      )}
    </section>
  );
}
