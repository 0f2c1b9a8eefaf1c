import { type FormEvent, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import Table from 'react-bootstrap/Table';
import type { AppPassword, NewAppPassword } from '../../../../contract/app-passwords.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { LoadingSpinner } from '../../components/loading-spinner.tsx';
import { OperationError } from '../../components/operation-error.tsx';
import { formatDateTime } from '../../lib/format-date.ts';
import { useListChanges } from '../../lib/use-list-changes.ts';
import { useAppPasswordsQuery, useCreateAppPasswordMutation, useRevokeAppPasswordMutation } from './app-passwords.api.ts';

/**
 * Named passwords for e-readers, which sign in to the OPDS catalogue with the e-mail and one of
 * them (an account from Google or another provider has no password of its own). A new one is shown
 * once, as the server keeps only its hash; each is listed with its last use and can be revoked.
 */
export function AppPasswordsSection() {
  const [createAppPassword] = useCreateAppPasswordMutation();
  const [revokeAppPassword] = useRevokeAppPasswordMutation();
  const { items: passwords, busy, error, change } = useListChanges(useAppPasswordsQuery());
  const [name, setName] = useState('');
  const [made, setMade] = useState<NewAppPassword | null>(null);
  const [revoking, setRevoking] = useState<AppPassword | null>(null);

  function create(event: FormEvent) {
    event.preventDefault();
    void change(async () => {
      setMade(await createAppPassword(name).unwrap());
      setName('');
    });
  }

  function revoke(password: AppPassword) {
    setRevoking(null);
    void change(async () => {
      await revokeAppPassword(password.id).unwrap();
      if (made?.id === password.id) setMade(null);
    });
  }

  return (
    <section id="app-passwords" className="mt-4">
      <h2 className="h5">App passwords</h2>
      <p className="text-muted small">
        {`E-readers (KOReader, Moon+ Reader, Thorium, Foliate) open the catalogue at ${window.location.origin}/opds ` +
          'with your e-mail and an app password. Make one for each device, so you can revoke it alone.'}
      </p>
      <p className="text-muted small">{`KOReader's progress sync takes one too: its custom sync server is ${window.location.origin}/kosync, signed in with your e-mail.`}</p>
      <OperationError message={error} id="app-passwords-error" />
      {made && (
        <Alert variant="success" id="app-password-made" onClose={() => setMade(null)} dismissible>
          <p className="mb-1">{`Your app password for "${made.name}". Copy it now: it will not be shown again.`}</p>
          <code id="app-password-value" className="fs-5 user-select-all">
            {made.password}
          </code>
        </Alert>
      )}
      <Form onSubmit={create} className="mb-3">
        <Form.Label htmlFor="app-password-name">New app password</Form.Label>
        <InputGroup>
          <Form.Control
            id="app-password-name"
            placeholder="e.g. KOReader on the Kobo"
            value={name}
            maxLength={100}
            onChange={(event) => setName(event.target.value)}
          />
          <Button type="submit" id="app-password-create" disabled={busy || name.trim() === ''}>
            Create
          </Button>
        </InputGroup>
      </Form>
      {passwords === null ? (
        busy && <LoadingSpinner />
      ) : passwords.length === 0 ? (
        <p id="app-passwords-none">No app passwords yet.</p>
      ) : (
        <Table size="sm" responsive>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span className="visually-hidden">Revoke</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {passwords.map((password) => (
              <tr key={password.id} className="app-password">
                <td className="text-break">{password.name}</td>
                <td>{formatDateTime(password.created_at)}</td>
                <td>{password.last_used_at === null ? 'Never' : formatDateTime(password.last_used_at)}</td>
                <td>
                  <Button size="sm" variant="outline-danger" disabled={busy} onClick={() => setRevoking(password)}>
                    Revoke
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <ConfirmDialog
        show={revoking !== null}
        title={`Revoke "${revoking?.name ?? ''}"?`}
        body="E-readers signed in with it are refused from their next request."
        confirm="Revoke"
        busy={busy}
        onConfirm={() => revoking && revoke(revoking)}
        onCancel={() => setRevoking(null)}
      />
    </section>
  );
}
