import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import { type Invitation, InvitationBody } from '../../../../contract/admin.ts';
import { errorMessage } from '../../api/api-error.ts';
import { formatDateTime } from '../../lib/format-date.ts';
import { useInviteMutation } from './admin.api.ts';

/** Invites one e-mail: the link is shown to copy, and said to be mailed when it was. */
export function InviteForm() {
  const [invite] = useInviteMutation();
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [invitation, setInvitation] = useState<(Invitation & { email: string }) | null>(null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = InvitationBody.safeParse({ email });
    if (!parsed.success) {
      setError(`E-mail ${parsed.error.issues[0]?.message ?? 'is not valid'}`);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      setInvitation({ ...(await invite(parsed.data.email).unwrap()), email: parsed.data.email });
      setEmail('');
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="invite-heading" className="mb-4">
      <h2 id="invite-heading" className="h5">
        Invite
      </h2>
      <Form noValidate onSubmit={(event) => void onSubmit(event)} aria-label="Invite" className="mb-2">
        {error !== null && <Alert variant="danger">{error}</Alert>}
        <InputGroup>
          <Form.Control
            type="email"
            aria-label="E-mail to invite"
            placeholder="E-mail to invite"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
          <Button type="submit" disabled={busy}>
            Create invitation
          </Button>
        </InputGroup>
      </Form>
      {invitation !== null && (
        <Alert variant="success">
          <p className="mb-1">
            {invitation.mailed ? `The invitation was mailed to ${invitation.email}. ` : `Send this link to ${invitation.email}. `}
            {`It works once, until ${formatDateTime(invitation.expiresAt)}.`}
          </p>
          <Form.Control readOnly aria-label="Invitation link" value={invitation.url} onFocus={(event) => event.target.select()} />
          <Button variant="outline-secondary" size="sm" className="mt-2" onClick={() => void navigator.clipboard?.writeText(invitation.url)}>
            Copy link
          </Button>
        </Alert>
      )}
    </section>
  );
}
