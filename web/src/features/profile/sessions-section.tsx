import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { LoadingSpinner } from '../../components/loading-spinner.tsx';
import { OperationError } from '../../components/operation-error.tsx';
import { formatDateTime } from '../../lib/format-date.ts';
import { useListChanges } from '../../lib/use-list-changes.ts';
import { useEndOtherSessionsMutation, useEndSessionMutation, useSessionsQuery } from './sessions.api.ts';

/**
 * Where the user is signed in (device, address, last use), with this browser marked; any other
 * session can be signed out, or all of them at once. A session ended here stops working at once.
 */
export function SessionsSection() {
  const [endSession] = useEndSessionMutation();
  const [endOtherSessions] = useEndOtherSessionsMutation();
  const { items: sessions, busy, error, change } = useListChanges(useSessionsQuery());

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
                      <Button size="sm" variant="outline-danger" disabled={busy} onClick={() => void change(() => endSession(session.id).unwrap())}>
                        Sign out
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
          <Button variant="danger" disabled={busy || others.length === 0} onClick={() => void change(() => endOtherSessions().unwrap())}>
            Sign out everywhere else
          </Button>
        </>
      )}
    </section>
  );
}
