import { useEffect, useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useSelector } from 'react-redux';
import { useSearchParams } from 'react-router';
import { PASSWORD_MIN_LENGTH, RegisterBody } from '../../../../contract/auth.ts';
import { errorMessage } from '../../api/api-error.ts';
import { useApiClient } from '../../api/api-client-context.ts';
import { LoadingSpinner } from '../../components/loading-spinner.tsx';
import { RedirectAfterPause } from '../../components/redirect-after-pause.tsx';
import { TextField } from '../../components/text-field.tsx';
import { fetchInvitation, register } from './auth.api.ts';
import { selectAuth } from './auth.slice.ts';
import { DEFAULT_PAGE } from './requested-page.ts';
import { useSignIn } from './use-sign-in.ts';

const LABELS = { displayName: 'Name', email: 'E-mail', password: 'Password', invitation: 'The invitation' } as const;

type Invited = { status: 'loading' } | { status: 'failed'; message: string } | { status: 'ready'; email: string };

/** The page an invitation's link opens (`/join?token=…`): sign-up for the e-mail invited, open or not. */
export function JoinPage() {
  const client = useApiClient();
  const auth = useSelector(selectAuth);
  const token = useSearchParams()[0].get('token') ?? '';
  const [invited, setInvited] = useState<Invited>({ status: 'loading' });

  useEffect(() => {
    const stop = new AbortController();
    fetchInvitation(client, token, stop.signal).then(
      ({ email }) => setInvited({ status: 'ready', email }),
      (error: unknown) => {
        if (!stop.signal.aborted) setInvited({ status: 'failed', message: errorMessage(error) });
      },
    );
    return () => stop.abort();
  }, [client, token]);

  if (invited.status === 'ready' && auth.authenticated && auth.email === invited.email) {
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
      {invited.status === 'loading' && <LoadingSpinner />}
      {invited.status === 'failed' && <Alert variant="danger">{invited.message}</Alert>}
      {invited.status === 'ready' && <JoinForm email={invited.email} invitation={token} />}
    </section>
  );
}

function JoinForm({ email, invitation }: { email: string; invitation: string }) {
  const [displayName, setDisplayName] = useState('');
  const [password, setPassword] = useState('');
  const { submit, busy, error } = useSignIn(RegisterBody, register, LABELS);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void submit({ displayName, email, password, invitation });
  }

  return (
    <Form noValidate onSubmit={onSubmit} aria-label="Create account">
      <p>{`You are invited to Organiser as ${email}.`}</p>
      {error !== null && <Alert variant="danger">{error}</Alert>}
      <TextField id="displayName" label={LABELS.displayName} autoComplete="name" value={displayName} onChange={setDisplayName} />
      <TextField
        id="password"
        label={LABELS.password}
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={setPassword}
        hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
      />
      <Button type="submit" disabled={busy}>
        Create account
      </Button>
    </Form>
  );
}
