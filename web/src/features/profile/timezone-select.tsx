import { useMemo, useState, type ChangeEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Form from 'react-bootstrap/Form';
import { useDispatch } from 'react-redux';
import { errorMessage } from '../../api/api-error.ts';
import { useApiClient } from '../../api/api-client-context.ts';
import { profileReceived } from '../auth/auth.slice.ts';
import { updateTimezone } from './profile.api.ts';
import { timeZoneOptions } from './time-zone-options.ts';

const knownZones = Intl.supportedValuesOf('timeZone');

export function TimezoneSelect({ timezone }: { timezone: string | null }) {
  const client = useApiClient();
  const dispatch = useDispatch();
  const [saving, setSaving] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const shown = saving ?? timezone;
  const options = useMemo(() => timeZoneOptions(knownZones, shown), [shown]);

  async function change(event: ChangeEvent<HTMLSelectElement>) {
    const zone = event.target.value;
    setSaving(zone);
    setError(null);
    try {
      dispatch(profileReceived(await updateTimezone(client, zone)));
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setSaving(null);
    }
  }

  return (
    <Form.Group controlId="timezone" className="mb-3">
      <Form.Label>Timezone</Form.Label>
      <Form.Select value={shown ?? ''} disabled={saving !== null} onChange={(event) => void change(event)}>
        {shown === null && (
          <option value="" disabled>
            Choose a timezone
          </option>
        )}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </Form.Select>
      {error !== null && (
        <Alert variant="danger" className="mt-2">
          {error}
        </Alert>
      )}
    </Form.Group>
  );
}
