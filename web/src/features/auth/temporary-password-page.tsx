import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useDispatch } from 'react-redux';
import { Link } from 'react-router';
import { z } from 'zod';
import { Password } from '../../../../contract/auth.ts';
import { CurrentPasswordField, NewPasswordField } from '../../components/password-fields.tsx';
import { describeIssues, useCheckedSubmit } from '../../lib/use-checked-submit.ts';
import { useRefreshSessionMutation, useReplaceTemporaryPasswordMutation } from './auth.api.ts';
import { signedIn } from './auth.slice.ts';

const NewPassword = z.object({ password: Password });
const LABELS = { password: 'New password' } as const;

/**
 * Shown instead of every page while the user holds a temporary password an administrator set: the
 * server refuses everything else until it is replaced. The token issued afterwards no longer says so.
 */
export function TemporaryPasswordPage() {
  const dispatch = useDispatch();
  const [replaceTemporaryPassword] = useReplaceTemporaryPasswordMutation();
  const [refreshSession] = useRefreshSessionMutation();
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const { submit, busy, error } = useCheckedSubmit(NewPassword, (problems) => describeIssues(problems, LABELS));

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void submit({ password }, async (body) => {
      await replaceTemporaryPassword({ current, password: body.password }).unwrap();
      dispatch(signedIn(await refreshSession().unwrap()));
    });
  }

  return (
    <section id="temporary-password" className="mx-auto" style={{ maxWidth: '28rem' }}>
      <h1 className="h3 mb-3">Choose a new password</h1>
      <p>An administrator set a temporary password for your account. Choose your own before you go on.</p>
      <Form noValidate onSubmit={onSubmit} aria-label="Choose a new password">
        {error !== null && <Alert variant="danger">{error}</Alert>}
        <CurrentPasswordField label="Temporary password" value={current} onChange={setCurrent} />
        <NewPasswordField value={password} onChange={setPassword} />
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
