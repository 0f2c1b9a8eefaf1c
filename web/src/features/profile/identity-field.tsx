import { useState } from 'react';
import Form from 'react-bootstrap/Form';
import { useDispatch } from 'react-redux';
import { DisplayName, Email } from '../../../../contract/auth.ts';
import { errorMessage } from '../../api/api-error.ts';
import { EditableField } from '../../components/editable-field.tsx';
import { OperationError } from '../../components/operation-error.tsx';
import { profileReceived, signedIn } from '../auth/auth.slice.ts';
import { useRenewTokenMutation, useUpdateIdentityMutation } from './profile.api.ts';

const FIELDS = {
  displayName: { label: 'Name', schema: DisplayName, type: 'text' },
  email: { label: 'E-mail', schema: Email, type: 'email' },
} as const;

/**
 * The profile's name or e-mail, edited in place. A saved change shows at once; the session is then
 * refreshed, so that the bearer token (which names both) carries the new value too.
 */
export function IdentityField({ field, value }: { field: keyof typeof FIELDS; value: string }) {
  const dispatch = useDispatch();
  const [updateIdentity] = useUpdateIdentityMutation();
  const [renewToken] = useRenewTokenMutation();
  const [error, setError] = useState<string | null>(null);
  const { label, schema, type } = FIELDS[field];

  async function save(draft: string): Promise<boolean> {
    setError(null);
    try {
      dispatch(profileReceived(await updateIdentity({ [field]: draft }).unwrap()));
    } catch (failure) {
      setError(errorMessage(failure));
      return false;
    }
    try {
      dispatch(signedIn(await renewToken().unwrap()));
    } catch (failure) {
      // Saved all the same: the token takes the new value at its next refresh, within 15 minutes.
      console.warn('The session could not be refreshed after a profile change', failure);
    }
    return true;
  }

  return (
    <>
      <EditableField
        id={`profile-${field}-field`}
        label={label}
        value={value}
        show={(shown) => shown}
        editor={(draft, setDraft, inputId) => (
          <Form.Control id={inputId} size="sm" type={type} aria-label={label} value={draft} onChange={(event) => setDraft(event.target.value)} />
        )}
        check={(draft) => {
          const parsed = schema.safeParse(draft);
          return parsed.success ? null : `${label}: ${parsed.error.issues[0]?.message ?? 'is not valid'}`;
        }}
        onSave={save}
      />
      <OperationError message={error} />
    </>
  );
}
