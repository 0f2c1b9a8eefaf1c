import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { ChangePasswordBody } from '../../../../contract/account.ts';
import { PASSWORD_MIN_LENGTH } from '../../../../contract/auth.ts';
import { errorMessage } from '../../api/api-error.ts';
import { useApiClient } from '../../api/api-client-context.ts';
import { TextField } from '../../components/text-field.tsx';
import { changePassword } from './account.api.ts';

const LABELS = { current: 'Current password', password: 'New password' } as const;

const signedOutElsewhere = (ended: number) =>
  ended === 0 ? 'Password changed.' : `Password changed; ${ended} other ${ended === 1 ? 'session was' : 'sessions were'} signed out.`;

/**
 * Change password: the current one is asked again (an account that signs in only through a
 * provider leaves it empty to set its first). Every other session is signed out; `onChanged`
 * lets the page show that.
 */
export function PasswordSection({ onChanged }: { onChanged(): void }) {
  const client = useApiClient();
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; message: string } | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = ChangePasswordBody.safeParse({ current: current === '' ? undefined : current, password });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path[0] as keyof typeof LABELS | undefined;
      setOutcome({ ok: false, message: `${field ? LABELS[field] : 'Password'}: ${issue?.message ?? 'is not valid'}` });
      return;
    }
    setBusy(true);
    setOutcome(null);
    try {
      const { ended } = await changePassword(client, parsed.data);
      setCurrent('');
      setPassword('');
      setOutcome({ ok: true, message: signedOutElsewhere(ended) });
      onChanged();
    } catch (failure) {
      setOutcome({ ok: false, message: errorMessage(failure) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section id="profile-password" className="mt-4">
      <h2 className="h5">Password</h2>
      <Form noValidate onSubmit={(event) => void submit(event)} aria-label="Change password" className="col-md-6">
        {outcome !== null && <Alert variant={outcome.ok ? 'success' : 'danger'}>{outcome.message}</Alert>}
        <TextField id="current-password" label={LABELS.current} type="password" autoComplete="current-password" value={current} onChange={setCurrent} />
        <TextField
          id="new-password"
          label={LABELS.password}
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={setPassword}
          hint={`At least ${PASSWORD_MIN_LENGTH} characters; other sessions are signed out`}
        />
        <Button type="submit" disabled={busy}>
          Change password
        </Button>
      </Form>
    </section>
  );
}
