import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Dropdown from 'react-bootstrap/Dropdown';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import type { AdminUser, UpdateUserBody } from '../../../../contract/admin.ts';
import { Password, PASSWORD_MIN_LENGTH } from '../../../../contract/auth.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';

type Props = {
  user: AdminUser;
  /** Resolves true when the change was made. */
  onChange(body: UpdateUserBody): Promise<boolean>;
  onDelete(): Promise<void>;
};

/** What an administrator may do to another account: a menu, the temporary password's field, the delete's confirmation. */
export function UserActions({ user, onChange, onDelete }: Props) {
  const [asking, setAsking] = useState<'password' | 'delete' | null>(null);
  const [busy, setBusy] = useState(false);
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  async function act(action: () => Promise<unknown>) {
    setBusy(true);
    try {
      await action();
    } finally {
      setBusy(false);
    }
  }

  async function setTemporary(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = Password.safeParse(password);
    if (!parsed.success) {
      setProblem(`Temporary password ${parsed.error.issues[0]?.message ?? 'is not valid'}`);
      return;
    }
    setProblem(null);
    await act(async () => {
      if (await onChange({ temporaryPassword: parsed.data })) {
        setAsking(null);
        setPassword('');
      }
    });
  }

  return (
    <>
      <Dropdown align="end">
        <Dropdown.Toggle variant="outline-secondary" size="sm" disabled={busy} aria-label={`Actions for ${user.email}`}>
          Actions
        </Dropdown.Toggle>
        <Dropdown.Menu>
          {!user.adminByConfig && (
            <Dropdown.Item as="button" onClick={() => void act(() => onChange({ admin: !user.admin }))}>
              {user.admin ? 'Remove administrator' : 'Make administrator'}
            </Dropdown.Item>
          )}
          <Dropdown.Item as="button" onClick={() => void act(() => onChange({ disabled: !user.disabled }))}>
            {user.disabled ? 'Enable' : 'Disable'}
          </Dropdown.Item>
          <Dropdown.Item as="button" onClick={() => setAsking('password')}>
            Set temporary password
          </Dropdown.Item>
          <Dropdown.Item as="button" className="text-danger" onClick={() => setAsking('delete')}>
            Delete
          </Dropdown.Item>
        </Dropdown.Menu>
      </Dropdown>
      {asking === 'password' && (
        <Form noValidate onSubmit={(event) => void setTemporary(event)} className="mt-2" aria-label={`Temporary password for ${user.email}`}>
          <InputGroup size="sm">
            <Form.Control
              type="text"
              aria-label="Temporary password"
              placeholder={`At least ${PASSWORD_MIN_LENGTH} characters`}
              value={password}
              autoComplete="off"
              autoFocus
              onChange={(event) => setPassword(event.target.value)}
              onKeyDown={(event) => event.key === 'Escape' && setAsking(null)}
            />
            <Button type="submit" disabled={busy}>
              Set
            </Button>
          </InputGroup>
          {problem !== null && <Form.Text className="text-danger">{problem}</Form.Text>}
        </Form>
      )}
      <ConfirmDialog
        show={asking === 'delete'}
        title={`Delete ${user.displayName}?`}
        body={`The account ${user.email} and all its bookmarks and tasks are deleted for good, and it is signed out everywhere.`}
        confirm="Delete"
        busy={busy}
        onConfirm={() => void act(async () => {
          await onDelete();
          setAsking(null);
        })}
        onCancel={() => setAsking(null)}
      />
    </>
  );
}
