import { useCallback, useEffect, useState } from 'react';
import Table from 'react-bootstrap/Table';
import { useSelector } from 'react-redux';
import type { AdminUser, UpdateUserBody } from '../../../../contract/admin.ts';
import { errorMessage } from '../../api/api-error.ts';
import { useApiClient } from '../../api/api-client-context.ts';
import { LoadingSpinner } from '../../components/loading-spinner.tsx';
import { OperationError } from '../../components/operation-error.tsx';
import { formatDateTime } from '../../lib/format-date.ts';
import { useRequest } from '../../lib/use-request.ts';
import { selectAuth } from '../auth/auth.slice.ts';
import { deleteUser, fetchUsers, updateUser } from './admin.api.ts';
import { InviteForm } from './invite-form.tsx';
import { UserActions } from './user-actions.tsx';

/** The administration page: every account, invitations, and what an administrator may change. */
export function AdminPage() {
  const client = useApiClient();
  const auth = useSelector(selectAuth);
  const { busy, run, cancel } = useRequest();
  const [users, setUsers] = useState<AdminUser[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(
    () =>
      run(async (signal) => {
        try {
          setUsers(await fetchUsers(client, signal));
        } catch (failure) {
          if (!signal.aborted) setError(errorMessage(failure));
        }
      }),
    [client, run],
  );

  useEffect(() => {
    void load();
    return cancel;
  }, [load, cancel]);

  async function change(user: AdminUser, body: UpdateUserBody): Promise<boolean> {
    setError(null);
    try {
      const changed = await updateUser(client, user.uid, body);
      setUsers((list) => list?.map((row) => (row.uid === changed.uid ? changed : row)) ?? null);
      return true;
    } catch (failure) {
      setError(errorMessage(failure));
      return false;
    }
  }

  async function remove(user: AdminUser): Promise<void> {
    setError(null);
    try {
      await deleteUser(client, user.uid);
      setUsers((list) => list?.filter((row) => row.uid !== user.uid) ?? null);
    } catch (failure) {
      setError(errorMessage(failure));
    }
  }

  return (
    <section id="admin">
      <h1 className="h3 mb-3">Administration</h1>
      <InviteForm onInvited={() => void load()} />
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
                    <UserActions user={user} onChange={(body) => change(user, body)} onDelete={() => remove(user)} />
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
