import { useState, type FormEvent } from 'react';
import type { z } from 'zod';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { ChangePasswordBody } from '../../../../contract/account.ts';
import { END_OTHER_CREDENTIALS_LABEL, PASSWORD_MIN_LENGTH } from '../../../../contract/auth.ts';
import { CurrentPasswordField, NewPasswordField } from '../../components/password-fields.tsx';
import { useCheckedSubmit } from '../../lib/use-checked-submit.ts';
import { useChangePasswordMutation } from './account.api.ts';

const LABELS = { current: 'Current password', password: 'New password' } as const;

/** The first problem alone, under its field's label. */
function firstProblem(error: z.ZodError): string {
  const issue = error.issues[0];
  const field = issue?.path[0] as keyof typeof LABELS | undefined;
  return `${field ? LABELS[field] : 'Password'}: ${issue?.message ?? 'is not valid'}`;
}

const signedOutElsewhere = (ended: number) =>
  ended === 0 ? 'Password changed.' : `Password changed; ${ended} other ${ended === 1 ? 'session was' : 'sessions were'} signed out.`;

const OTHER_CREDENTIALS_ENDED = 'API tokens, app passwords and the calendar address were ended.';

/**
 * Change password: the current one is asked again (an account that signs in only through a
 * provider leaves it empty to set its first). Every other session is signed out, and, if the box
 * is ticked, every API token, app password and the calendar address; their lists show it once the
 * change invalidates them.
 */
export function PasswordSection() {
  const [changePassword] = useChangePasswordMutation();
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [endOtherCredentials, setEndOtherCredentials] = useState(false);
  const [changed, setChanged] = useState<string | null>(null);
  const { submit, busy, error } = useCheckedSubmit(ChangePasswordBody, firstProblem);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setChanged(null);
    await submit({ current: current === '' ? undefined : current, password, endOtherCredentials }, async (body) => {
      const { ended } = await changePassword(body).unwrap();
      setCurrent('');
      setPassword('');
      setEndOtherCredentials(false);
      const message = signedOutElsewhere(ended);
      setChanged(body.endOtherCredentials ? `${message} ${OTHER_CREDENTIALS_ENDED}` : message);
    });
  }

  return (
    <section id="profile-password" className="mt-4">
      <h2 className="h5">Password</h2>
      <Form noValidate onSubmit={(event) => void onSubmit(event)} aria-label="Change password" className="col-md-6">
        {error !== null && <Alert variant="danger">{error}</Alert>}
        {changed !== null && <Alert variant="success">{changed}</Alert>}
        <CurrentPasswordField label={LABELS.current} value={current} onChange={setCurrent} />
        <NewPasswordField
          label={LABELS.password}
          value={password}
          onChange={setPassword}
          hint={`At least ${PASSWORD_MIN_LENGTH} characters; other sessions are signed out`}
        />
        <Form.Check
          type="checkbox"
          id="change-end-other-credentials"
          className="mb-3"
          label={END_OTHER_CREDENTIALS_LABEL}
          checked={endOtherCredentials}
          onChange={(event) => setEndOtherCredentials(event.target.checked)}
        />
        <Button type="submit" disabled={busy}>
          Change password
        </Button>
      </Form>
    </section>
  );
}
