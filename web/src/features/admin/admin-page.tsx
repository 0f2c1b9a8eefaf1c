import Table from 'react-bootstrap/Table';
import { useSelector } from 'react-redux';
import type { AdminUser } from '../../../../contract/admin.ts';
import { LoadingSpinner } from '../../components/loading-spinner.tsx';
import { OperationError } from '../../components/operation-error.tsx';
import { formatDateTime } from '../../lib/format-date.ts';
import { useListChanges } from '../../lib/use-list-changes.ts';
import { selectAuth } from '../auth/auth.slice.ts';
import { useDeleteUserMutation, useUpdateUserMutation, useUsersQuery } from './admin.api.ts';
import { InviteForm } from './invite-form.tsx';
import { PendingInvitations } from './pending-invitations.tsx';
import { UserActions } from './user-actions.tsx';

/** The administration page: every account, invitations, and what an administrator may change. */
export function AdminPage() {
  const auth = useSelector(selectAuth);
  const [updateUser] = useUpdateUserMutation();
  const [deleteUser] = useDeleteUserMutation();
  const { items: users, busy, error, change } = useListChanges(useUsersQuery());

  return (
    <section id="admin">
      <h1 className="h3 mb-3">Administration</h1>
      <InviteForm />
      <PendingInvitations />
      <h2 className="h5">Accounts</h2>
      <OperationError message={error} />
      {users === null && busy && <LoadingSpinner />}
      {users !== null && (
        <Table responsive size="sm" className="align-middle" aria-label="Accounts">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">E-mail</th>
              <th scope="col">Administrator</th>
              <th scope="col">Sign-in</th>
              <th scope="col">Created</th>
              <th scope="col">Last seen</th>
              <th scope="col">Bookmarks</th>
              <th scope="col">Tasks</th>
              <th scope="col">Status</th>
              {/* Positioned, so that the hidden label stays inside the table's sideways scroll on a phone. */}
              <th scope="col" className="position-relative">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {users.map((user) => (
              <tr key={user.uid} data-email={user.email}>
                <td>{user.displayName}</td>
                <td>{user.email}</td>
                <td>{user.admin ? (user.adminByConfig ? 'Yes (ADMIN_EMAILS)' : 'Yes') : 'No'}</td>
                <td>{user.signIn.join(', ') || 'none'}</td>
                <td>{formatDateTime(user.createdAt)}</td>
                <td>{user.lastSeenAt === null ? 'never' : formatDateTime(user.lastSeenAt)}</td>
                <td>{user.bookmarks}</td>
                <td>{user.tasks}</td>
                <td>{status(user)}</td>
                <td>
                  {auth.authenticated && user.uid !== auth.uid && (
                    <UserActions user={user} onChange={(body) => change(() => updateUser({ id: user.uid, change: body }).unwrap())}
                      onDelete={() => change(() => deleteUser(user.uid).unwrap()).then(() => undefined)} />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </section>
  );
}

function status(user: AdminUser): string {
  if (user.disabled) return 'Disabled';
  return user.passwordChangeRequired ? 'Must change password' : 'Active';
}
