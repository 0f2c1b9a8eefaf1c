import { type FormEvent, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { API_TOKEN_NAME_MAX, type ApiToken, type ApiTokenScope, type CreatedApiToken } from '../../../../contract/api-tokens.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { OperationError } from '../../components/operation-error.tsx';
import { formatDateTime } from '../../lib/format-date.ts';
import { useListChanges } from '../../lib/use-list-changes.ts';
import { useApiTokensQuery, useCreateApiTokenMutation, useRevokeApiTokenMutation } from './api-tokens.api.ts';

const SCOPE_LABELS: Record<ApiTokenScope, string> = { read: 'read-only', write: 'read and write' };

/**
 * Personal API tokens for scripts and browser extensions: made here, shown once (the server keeps
 * only a hash), listed with their last use, revoked at once.
 */
export function ApiTokensSection() {
  const [createApiToken] = useCreateApiTokenMutation();
  const [revokeApiToken] = useRevokeApiTokenMutation();
  const { items, busy, error, change } = useListChanges(useApiTokensQuery());
  const tokens = items ?? [];
  const [name, setName] = useState('');
  const [scope, setScope] = useState<ApiTokenScope>('write');
  const [created, setCreated] = useState<(CreatedApiToken & { name: string }) | null>(null);
  const [revoking, setRevoking] = useState<ApiToken | null>(null);

  function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void change(async () => {
      const token = await createApiToken({ name: name.trim(), scope }).unwrap();
      setCreated({ ...token, name: name.trim() });
      setName('');
    });
  }

  function revoke(token: ApiToken) {
    void change(async () => {
      await revokeApiToken(token.id).unwrap();
      if (created?.id === token.id) setCreated(null);
      setRevoking(null);
    });
  }

  return (
    <section id="api-tokens" className="mt-4">
      <h2 className="h5">API tokens</h2>
      <p className="small text-secondary">
        For scripts and browser extensions: send one as <code>Authorization: Bearer …</code> to the bookmark and task calls. A token
        cannot change your account.
      </p>
      <Form className="d-flex flex-wrap gap-2 align-items-end mb-3" onSubmit={create}>
        <Form.Group controlId="api-token-name">
          <Form.Label>Token name</Form.Label>
          <Form.Control value={name} maxLength={API_TOKEN_NAME_MAX} placeholder="e.g. Firefox extension" onChange={(event) => setName(event.target.value)} />
        </Form.Group>
        <Form.Group controlId="api-token-scope">
          <Form.Label>Access</Form.Label>
          <Form.Select value={scope} onChange={(event) => setScope(event.target.value as ApiTokenScope)}>
            <option value="write">{SCOPE_LABELS.write}</option>
            <option value="read">{SCOPE_LABELS.read}</option>
          </Form.Select>
        </Form.Group>
        <Button type="submit" disabled={busy || name.trim() === ''}>
          Create token
        </Button>
      </Form>
      {created !== null && (
        <Alert variant="success" id="api-token-created" onClose={() => setCreated(null)} dismissible>
          <p className="mb-1">{`Your new token “${created.name}”. Copy it now: it will not be shown again.`}</p>
          <code className="user-select-all text-break" id="api-token-value">
            {created.token}
          </code>
        </Alert>
      )}
      <OperationError message={error} />
      {tokens.length === 0 ? (
        <p className="text-secondary">No API tokens</p>
      ) : (
        <Table size="sm" responsive id="api-token-list">
          <thead>
            <tr>
              <th>Name</th>
              <th>Access</th>
              <th>Created</th>
              <th>Last used</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {tokens.map((token) => (
              <tr key={token.id}>
                <td>{token.name}</td>
                <td>{SCOPE_LABELS[token.scope]}</td>
                <td>{formatDateTime(token.createdAt)}</td>
                <td>{token.lastUsedAt === null ? 'never' : formatDateTime(token.lastUsedAt)}</td>
                <td className="text-end">
                  <Button variant="outline-danger" size="sm" disabled={busy} onClick={() => setRevoking(token)} aria-label={`Revoke ${token.name}`}>
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
        title="Revoke token"
        body={`Revoke “${revoking?.name ?? ''}”? Scripts that use it stop working at once.`}
        confirm="Revoke"
        busy={busy}
        onConfirm={() => revoking && revoke(revoking)}
        onCancel={() => setRevoking(null)}
      />
    </section>
  );
}
