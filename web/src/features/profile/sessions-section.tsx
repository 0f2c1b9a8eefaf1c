import { useCallback, useEffect, useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import type { UserSession } from '../../../../contract/sessions.ts';
import { errorMessage } from '../../api/api-error.ts';
import { useApiClient } from '../../api/api-client-context.ts';
import { LoadingSpinner } from '../../components/loading-spinner.tsx';
import { OperationError } from '../../components/operation-error.tsx';
import { formatDateTime } from '../../lib/format-date.ts';
import { useRequest } from '../../lib/use-request.ts';
import { endOtherSessions, endSession, fetchSessions } from './sessions.api.ts';

/**
 * Where the user is signed in (device, address, last use), with this browser marked; any other
 * session can be signed out, or all of them at once. A session ended here stops working at once.
 * Loaded again whenever `version` changes (a password change ends the other sessions).
 */
export function SessionsSection({ version }: { version: number }) {
  const client = useApiClient();
  const { busy, run, cancel } = useRequest();
  const [sessions, setSessions] = useState<UserSession[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const change = useCallback(
    (action: () => Promise<unknown>) =>
      run(async (signal) => {
        setError(null);
        try {
          await action();
          const loaded = await fetchSessions(client, signal);
          if (!signal.aborted) setSessions(loaded);
        } catch (failure) {
          if (!signal.aborted) setError(errorMessage(failure));
        }
      }),
    [client, run],
  );

  useEffect(() => {
    void change(async () => {});
    return cancel;
  }, [change, cancel, version]);

  const others = sessions?.filter((session) => !session.current) ?? [];
  return (
    <section id="profile-sessions" className="mt-4">
      <h2 className="h5">Sessions</h2>
      <OperationError message={error} />
      {sessions === null ? (
        busy && <LoadingSpinner />
      ) : (
        <>
          <Table size="sm" responsive>
            <thead>
              <tr>
                <th scope="col">Device</th>
                <th scope="col">Address</th>
                <th scope="col">Last use</th>
                <th scope="col">
                  <span className="visually-hidden">Sign out</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {sessions.map((session) => (
                <tr key={session.id} className="user-session" data-current={session.current}>
                  <td className="text-break">
                    {session.userAgent ?? 'Unknown device'}
                    {session.current && (
                      <Badge bg="success" className="ms-2">
                        this device
                      </Badge>
                    )}
                  </td>
                  <td>{session.address ?? '—'}</td>
                  <td>{formatDateTime(session.lastUsedAt)}</td>
                  <td>
                    {!session.current && (
                      <Button size="sm" variant="outline-danger" disabled={busy} onClick={() => void change(() => endSession(client, session.id))}>
                        Sign out
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
          <Button variant="danger" disabled={busy || others.length === 0} onClick={() => void change(() => endOtherSessions(client))}>
            Sign out everywhere else
          </Button>
        </>
      )}
    </section>
  );
}
