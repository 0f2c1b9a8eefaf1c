import { type FormEvent, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import Table from 'react-bootstrap/Table';
import {
  DEFAULT_SIZE_LIMIT_MB,
  E_READER_KIND_NAMES,
  E_READER_KINDS,
  type EReader,
  type EReaderKind,
  MAX_SIZE_LIMIT_MB,
} from '../../../../contract/e-readers.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { LoadingSpinner } from '../../components/loading-spinner.tsx';
import { OperationError } from '../../components/operation-error.tsx';
import { useListChanges } from '../../lib/use-list-changes.ts';
import { useAddEReaderMutation, useEReadersQuery, useRemoveEReaderMutation } from './e-readers.api.ts';

const HINTS: Readonly<Record<EReaderKind, string>> = {
  kindle: 'e.g. name_123@kindle.com',
  pocketbook: 'e.g. name@pbsync.com',
  other: 'e.g. name@example.org',
};

/**
 * The addresses books are mailed to from a book's page ("Send"): a Kindle's, a PocketBook's, or
 * any other, each with a name and the largest file the device takes (the kind's default unless
 * changed). The server checks the address; a refusal shows above the form and keeps nothing.
 */
export function EReadersSection() {
  const [addEReader] = useAddEReaderMutation();
  const [removeEReader] = useRemoveEReaderMutation();
  const { items: devices, busy, error, change } = useListChanges(useEReadersQuery());
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [kind, setKind] = useState<EReaderKind>('kindle');
  const [limit, setLimit] = useState(String(DEFAULT_SIZE_LIMIT_MB.kindle));
  const [removing, setRemoving] = useState<EReader | null>(null);

  function chooseKind(next: EReaderKind) {
    // A limit left at the old kind's default follows the kind; one the user typed stays.
    if (limit === String(DEFAULT_SIZE_LIMIT_MB[kind])) setLimit(String(DEFAULT_SIZE_LIMIT_MB[next]));
    setKind(next);
  }

  function add(event: FormEvent) {
    event.preventDefault();
    void change(async () => {
      await addEReader({ name, email, kind, max_mb: limit.trim() === '' ? undefined : Number(limit) }).unwrap();
      setName('');
      setEmail('');
    });
  }

  function remove(device: EReader) {
    setRemoving(null);
    void change(() => removeEReader(device.id).unwrap());
  }

  return (
    <section id="e-readers" className="mt-4">
      <h2 className="h5">E-readers</h2>
      <p className="text-muted small">
        Books are mailed to these addresses from a book’s page (“Send”). For a Kindle, add this server’s sender address to
        Amazon’s approved e-mail list first; for a PocketBook, turn on Send-to-PocketBook on the device.
      </p>
      <OperationError message={error} id="e-readers-error" />
      <Form onSubmit={add} className="mb-3" id="e-reader-form">
        <Row className="g-2">
          <Col xs={12} md={3}>
            <Form.Label htmlFor="e-reader-name">Name</Form.Label>
            <Form.Control
              id="e-reader-name"
              placeholder="e.g. Kindle Paperwhite"
              value={name}
              maxLength={100}
              onChange={(event) => setName(event.target.value)}
            />
          </Col>
          <Col xs={12} md={3}>
            <Form.Label htmlFor="e-reader-kind">Device</Form.Label>
            <Form.Select id="e-reader-kind" value={kind} onChange={(event) => chooseKind(event.target.value as EReaderKind)}>
              {E_READER_KINDS.map((option) => (
                <option key={option} value={option}>
                  {E_READER_KIND_NAMES[option]}
                </option>
              ))}
            </Form.Select>
          </Col>
          <Col xs={12} md={4}>
            <Form.Label htmlFor="e-reader-email">Address</Form.Label>
            <Form.Control
              id="e-reader-email"
              type="text"
              inputMode="email"
              autoComplete="off"
              placeholder={HINTS[kind]}
              value={email}
              maxLength={254}
              onChange={(event) => setEmail(event.target.value)}
            />
          </Col>
          <Col xs={6} md={2}>
            <Form.Label htmlFor="e-reader-limit">Limit (MB)</Form.Label>
            <Form.Control
              id="e-reader-limit"
              type="number"
              min={1}
              max={MAX_SIZE_LIMIT_MB}
              step={1}
              value={limit}
              onChange={(event) => setLimit(event.target.value)}
            />
          </Col>
        </Row>
        <Button type="submit" id="e-reader-add" className="mt-2" disabled={busy || name.trim() === '' || email.trim() === ''}>
          Add e-reader
        </Button>
      </Form>
      {devices === null ? (
        busy && <LoadingSpinner />
      ) : devices.length === 0 ? (
        <p id="e-readers-none">No e-readers yet.</p>
      ) : (
        <Table size="sm" responsive>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Address</th>
              <th scope="col">Device</th>
              <th scope="col">Limit</th>
              <th scope="col">
                <span className="visually-hidden">Remove</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {devices.map((device) => (
              <tr key={device.id} className="e-reader">
                <td className="text-break">{device.name}</td>
                <td className="text-break">{device.email}</td>
                <td>{E_READER_KIND_NAMES[device.kind]}</td>
                <td>{`${device.max_mb} MB`}</td>
                <td>
                  <Button size="sm" variant="outline-danger" disabled={busy} onClick={() => setRemoving(device)}>
                    Remove
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <ConfirmDialog
        show={removing !== null}
        title={`Remove "${removing?.name ?? ''}"?`}
        body="Books can no longer be sent to it from this account."
        confirm="Remove"
        busy={busy}
        onConfirm={() => removing && remove(removing)}
        onCancel={() => setRemoving(null)}
      />
    </section>
  );
}
