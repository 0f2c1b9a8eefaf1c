import { useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { OperationError } from '../../components/operation-error.tsx';
import { formatDateTime } from '../../lib/format-date.ts';
import { useListChanges } from '../../lib/use-list-changes.ts';
import { useCalendarStatusQuery, useMakeCalendarAddressMutation, useTurnCalendarOffMutation } from './calendar.api.ts';

type Asking = 'new-address' | 'turn-off' | null;

/**
 * The private calendar subscription: on, its address with Copy, "Make a new one" and "Turn off".
 * The server keeps only a hash of the address's token, so the address shows only after it is made.
 */
export function CalendarSection() {
  const [makeCalendarAddress] = useMakeCalendarAddressMutation();
  const [turnCalendarOff] = useTurnCalendarOffMutation();
  const { items: status, busy, error: callError, change } = useListChanges(useCalendarStatusQuery());
  const [url, setUrl] = useState<string | null>(null);
  const [asking, setAsking] = useState<Asking>(null);
  const [copied, setCopied] = useState(false);
  const [copyError, setCopyError] = useState<string | null>(null);
  const address = useRef<HTMLInputElement>(null);
  const error = copyError ?? callError;

  function act(action: () => Promise<void>) {
    setAsking(null);
    setCopyError(null);
    setCopied(false);
    void change(action);
  }

  const makeAddress = () =>
    act(async () => {
      setUrl((await makeCalendarAddress().unwrap()).url);
    });
  const turnOff = () =>
    act(async () => {
      await turnCalendarOff().unwrap();
      setUrl(null);
    });

  async function copy() {
    if (url === null) return;
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
    } catch {
      // The clipboard needs a secure origin; selected, the address is one keystroke from copied.
      address.current?.select();
      setCopyError('Copying is not allowed here: the address is selected, press Ctrl+C (⌘C) to copy it');
    }
  }

  return (
    <section id="calendar" className="mt-4">
      <h2 className="h5">Calendar</h2>
      <p className="text-muted small">
        Subscribe to your tasks from Google Calendar, Apple Calendar, Thunderbird or DAVx⁵: one event per occurrence, from 30 days
        back to 12 months ahead, in your timezone. Anyone with the address can read your tasks.
      </p>
      <OperationError message={error} id="calendar-error" />
      {status?.enabled === false && (
        <Button id="calendar-on" onClick={makeAddress} disabled={busy}>
          Turn on calendar
        </Button>
      )}
      {status?.enabled === true && (
        <>
          {url !== null ? (
            <Form.Group controlId="calendar-url" className="mb-2">
              <Form.Label>Calendar address</Form.Label>
              <InputGroup>
                <Form.Control ref={address} readOnly value={url} onFocus={(event) => event.target.select()} />
                <Button variant="outline-secondary" id="calendar-copy" onClick={() => void copy()}>
                  {copied ? 'Copied' : 'Copy'}
                </Button>
              </InputGroup>
            </Form.Group>
          ) : (
            <p id="calendar-hidden">
              {`Your calendar is on (address made ${formatDateTime(status.created_at)}). The address is shown only when it is made: make a new one to see it here.`}
            </p>
          )}
          <Button variant="outline-primary" className="me-2" id="calendar-new" onClick={() => setAsking('new-address')} disabled={busy}>
            Make a new one
          </Button>
          <Button variant="outline-danger" id="calendar-off" onClick={() => setAsking('turn-off')} disabled={busy}>
            Turn off
          </Button>
        </>
      )}
      <ConfirmDialog
        show={asking === 'new-address'}
        title="Make a new calendar address?"
        body="The address you have now stops working: calendars subscribed to it need the new one."
        confirm="Make a new one"
        busy={busy}
        onConfirm={makeAddress}
        onCancel={() => setAsking(null)}
      />
      <ConfirmDialog
        show={asking === 'turn-off'}
        title="Turn the calendar off?"
        body="Its address stops working: calendars subscribed to it get no more updates."
        confirm="Turn off"
        busy={busy}
        onConfirm={turnOff}
        onCancel={() => setAsking(null)}
      />
    </section>
  );
}
