import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import type { PendingInvitation } from '../../../../contract/admin.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { OperationError } from '../../components/operation-error.tsx';
import { formatDateTime } from '../../lib/format-date.ts';
import { useListChanges } from '../../lib/use-list-changes.ts';
import { useInvitationsQuery, useRevokeInvitationMutation } from './admin.api.ts';

/** The invitations not yet used nor expired, each with Revoke, which asks first. */
export function PendingInvitations() {
  const [revoke] = useRevokeInvitationMutation();
  const { items: invitations, busy, error, change } = useListChanges(useInvitationsQuery());
  const [asking, setAsking] = useState<PendingInvitation | null>(null);

  async function revokeAsked() {
    if (asking === null) return;
    if (await change(() => revoke(asking.id).unwrap())) setAsking(null);
  }

  return (
    <section aria-labelledby="pending-invitations-heading" className="mb-4">
      <h2 id="pending-invitations-heading" className="h5">
        Pending invitations
      </h2>
      <OperationError message={error} />
      {invitations !== null && invitations.length === 0 && <p className="text-body-secondary">No invitation is waiting to be used.</p>}
      {invitations !== null && invitations.length > 0 && (
        <Table responsive size="sm" className="align-middle" aria-label="Pending invitations">
          <thead>
            <tr>
              <th scope="col">E-mail</th>
              <th scope="col">Sent by</th>
              <th scope="col">Sent</th>
              <th scope="col">Expires</th>
              <th scope="col" className="position-relative">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {invitations.map((invitation) => (
              <tr key={invitation.id} data-email={invitation.email}>
                <td>{invitation.email}</td>
                <td>{invitation.invitedBy ?? 'a deleted account'}</td>
                <td>{formatDateTime(invitation.createdAt)}</td>
                <td>{formatDateTime(invitation.expiresAt)}</td>
                <td>
                  <Button variant="outline-danger" size="sm" disabled={busy} aria-label={`Revoke the invitation of ${invitation.email}`}
                    onClick={() => setAsking(invitation)}>
                    Revoke
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <ConfirmDialog
        show={asking !== null}
        title="Revoke invitation"
        body={`The link sent to ${asking?.email ?? ''} will no longer work.`}
        confirm="Revoke"
        busy={busy}
        onConfirm={() => void revokeAsked()}
        onCancel={() => setAsking(null)}
      />
    </section>
  );
}
