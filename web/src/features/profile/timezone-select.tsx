import { useMemo, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Form from 'react-bootstrap/Form';
import { useDispatch } from 'react-redux';
import Select, { type SingleValue } from 'react-select';
import { errorMessage } from '../../api/api-error.ts';
import { EmotionStyles } from '../../components/emotion-styles.tsx';
import { profileReceived } from '../auth/auth.slice.ts';
import { useUpdateTimezoneMutation } from './profile.api.ts';
import { matchesTimeZone, type TimeZoneOption, timeZoneOptions } from './time-zone-options.ts';

const knownZones = Intl.supportedValuesOf('timeZone');

const noOptionsMessage = () => 'No such timezone';

/** The profile's timezone: a select that filters its 400-odd zones as the user types. */
export function TimezoneSelect({ timezone }: { timezone: string | null }) {
  const dispatch = useDispatch();
  const [updateTimezone] = useUpdateTimezoneMutation();
  const [saving, setSaving] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const shown = saving ?? timezone;
  const options = useMemo(() => timeZoneOptions(knownZones, shown), [shown]);
  const chosen = options.find((option) => option.value === shown) ?? null;

  async function change(option: SingleValue<TimeZoneOption>) {
    if (option === null || option.value === shown) return;
    setSaving(option.value);
    setError(null);
    try {
      dispatch(profileReceived(await updateTimezone(option.value).unwrap()));
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setSaving(null);
    }
  }

  return (
    <Form.Group className="mb-3 timezone-field">
      <Form.Label htmlFor="timezone">Timezone</Form.Label>
      <EmotionStyles>
        <Select<TimeZoneOption, false>
          inputId="timezone"
          name="timezone"
          classNamePrefix="timezone"
          options={options}
          value={chosen}
          isDisabled={saving !== null}
          onChange={(option) => void change(option)}
          filterOption={(option, typed) => matchesTimeZone(option.data, typed)}
          noOptionsMessage={noOptionsMessage}
          placeholder="Choose a timezone"
        />
      </EmotionStyles>
      {error !== null && (
        <Alert variant="danger" className="mt-2">
          {error}
        </Alert>
      )}
    </Form.Group>
  );
}
