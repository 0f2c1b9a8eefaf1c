import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useSelector } from 'react-redux';
import { useSearchParams } from 'react-router';
import { RegisterBody } from '../../../../contract/auth.ts';
import { errorMessage } from '../../api/api-error.ts';
import { LoadingSpinner } from '../../components/loading-spinner.tsx';
import { NewPasswordField } from '../../components/password-fields.tsx';
import { RedirectAfterPause } from '../../components/redirect-after-pause.tsx';
import { TextField } from '../../components/text-field.tsx';
import { useInvitationQuery, useRegisterMutation } from './auth.api.ts';
import { selectAuth } from './auth.slice.ts';
import { DEFAULT_PAGE } from './requested-page.ts';
import { useSignIn } from './use-sign-in.ts';

const LABELS = { displayName: 'Name', email: 'E-mail', password: 'Password', invitation: 'The invitation' } as const;

/** The page an invitation's link opens (`/join?token=…`): sign-up for the e-mail invited, open or not. */
export function JoinPage() {
  const auth = useSelector(selectAuth);
  const token = useSearchParams()[0].get('token') ?? '';
  const invited = useInvitationQuery(token);

  if (invited.data !== undefined && auth.authenticated && auth.email === invited.data.email) {
    return (
      <section id="join" className="mx-auto" style={{ maxWidth: '28rem' }}>
        <h1 className="h3 mb-3">{`Welcome ${auth.displayName}`}</h1>
        <RedirectAfterPause to={DEFAULT_PAGE} />
      </section>
    );
  }
  return (
    <section id="join" className="mx-auto" style={{ maxWidth: '28rem' }}>
      <h1 className="h3 mb-3">Create your account</h1>
      {invited.isLoading && <LoadingSpinner />}
      {invited.error !== undefined && <Alert variant="danger">{errorMessage(invited.error)}</Alert>}
      {invited.data !== undefined && <JoinForm email={invited.data.email} invitation={token} />}
    </section>
  );
}

function JoinForm({ email, invitation }: { email: string; invitation: string }) {
  const [displayName, setDisplayName] = useState('');
  const [password, setPassword] = useState('');
  const { submit, busy, error } = useSignIn(RegisterBody, useRegisterMutation()[0], LABELS);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void submit({ displayName, email, password, invitation });
  }

  return (
    <Form noValidate onSubmit={onSubmit} aria-label="Create account">
      <p>{`You are invited to Organiser as ${email}.`}</p>
      {error !== null && <Alert variant="danger">{error}</Alert>}
      <TextField id="displayName" label={LABELS.displayName} autoComplete="name" value={displayName} onChange={setDisplayName} />
      <NewPasswordField id="password" label={LABELS.password} value={password} onChange={setPassword} />
      <Button type="submit" disabled={busy}>
        Create account
      </Button>
    </Form>
  );
}
