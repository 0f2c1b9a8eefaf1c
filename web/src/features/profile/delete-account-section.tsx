import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { useDispatch } from 'react-redux';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../api/api-error.ts';
import { OperationError } from '../../components/operation-error.tsx';
import { TextField } from '../../components/text-field.tsx';
import { signedOut } from '../auth/auth.slice.ts';
import { type AccountExport, useDeleteMyAccountMutation, useSaveAccountExportMutation } from './account.api.ts';

const typedAs = (text: string) => text.trim().toLowerCase();

/**
 * The danger zone: deleting one's own account with everything in it, once its e-mail is typed
 * again. The server deletes and ends every session; this browser signs out and shows the login page.
 */
export function DeleteAccountSection({ email }: { email: string }) {
  const [asking, setAsking] = useState(false);
  return (
    <section id="profile-delete" className="mt-4 border border-danger rounded p-3">
      <h2 className="h5 text-danger">Delete my account</h2>
      <p>Deletes your account with your bookmarks, tasks, pending notices and sessions. This cannot be undone.</p>
      <ExportButtons />
      <Button variant="outline-danger" onClick={() => setAsking(true)}>
        Delete my account…
      </Button>
      {asking && <DeleteAccountDialog email={email} onCancel={() => setAsking(false)} />}
    </section>
  );
}

/** "Export my data first": the bookmarks as a browser file, the tasks as JSON. */
function ExportButtons() {
  const [saveAccountExport] = useSaveAccountExportMutation();
  const [error, setError] = useState<string | null>(null);
  const save = async (what: string, which: AccountExport) => {
    setError(null);
    try {
      await saveAccountExport(which).unwrap();
    } catch (failure) {
      setError(`${what} export failed: ${errorMessage(failure)}`);
    }
  };
  return (
    <div className="mb-3" role="group" aria-label="Export my data first">
      <p className="mb-2">Export my data first:</p>
      <div className="d-flex flex-wrap gap-2">
        <Button variant="outline-secondary" size="sm" onClick={() => void save('Bookmarks', 'bookmarks')}>
          Bookmarks (browser file)
        </Button>
        <Button variant="outline-secondary" size="sm" onClick={() => void save('Tasks', 'tasks')}>
          Tasks (JSON)
        </Button>
      </div>
      <OperationError message={error} />
    </div>
  );
}

function DeleteAccountDialog({ email, onCancel }: { email: string; onCancel(): void }) {
  const dispatch = useDispatch();
  const [deleteMyAccount] = useDeleteMyAccountMutation();
  const navigate = useNavigate();
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const matches = typedAs(typed) === typedAs(email);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!matches || busy) return;
    setBusy(true);
    setError(null);
    try {
      await deleteMyAccount({ email: typed }).unwrap();
      dispatch(signedOut());
      await navigate('/login', { replace: true });
    } catch (failure) {
      setError(errorMessage(failure));
      setBusy(false);
    }
  }

  return (
    <Modal show onHide={busy ? () => {} : onCancel} centered aria-labelledby="delete-account-title">
      <Form noValidate onSubmit={(event) => void submit(event)} aria-label="Delete my account">
        <Modal.Header closeButton={!busy}>
          <Modal.Title className="h5" id="delete-account-title">
            Delete my account
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {error !== null && <Alert variant="danger">{error}</Alert>}
          <p>
            Your bookmarks, tasks, pending notices and sessions are deleted with the account, at once and for good. Type your e-mail,{' '}
            <strong>{email}</strong>, to confirm.
          </p>
          <TextField id="delete-account-email" label="Your e-mail" type="email" autoComplete="off" value={typed} onChange={setTyped} />
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant="danger" disabled={!matches || busy}>
            Delete my account
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
