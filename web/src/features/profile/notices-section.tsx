import { type FormEvent, useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import Table from 'react-bootstrap/Table';
import type { PushDevice } from '../../../../contract/notify.ts';
import { OperationError } from '../../components/operation-error.tsx';
import { formatDateTime } from '../../lib/format-date.ts';
import { useListChanges } from '../../lib/use-list-changes.ts';
import {
  useAddPushDeviceMutation,
  useLazyVapidPublicKeyQuery,
  useNtfyTopicQuery,
  usePushDevicesQuery,
  useRemovePushDeviceMutation,
  useSetNtfyTopicMutation,
  useTestNtfyMutation,
} from './notices.api.ts';
import { currentSubscription, pushSupported, subscribeThisDevice } from './push-device.ts';

/** A push service's host is all a person can tell devices apart by (Google's for Chrome, Mozilla's for Firefox…). */
const serviceOf = (device: PushDevice) => new URL(device.endpoint).host;

/**
 * Notices beyond mail: push notices on this browser or phone (with a Done button) and an ntfy
 * topic. The notices of a task go to its owner's devices and topic.
 */
export function NoticesSection() {
  const [vapidKey] = useLazyVapidPublicKeyQuery();
  const [addDevice] = useAddPushDeviceMutation();
  const [removeDevice] = useRemovePushDeviceMutation();
  const [setTopic] = useSetNtfyTopicMutation();
  const [testNtfy] = useTestNtfyMutation();
  const { items: devices, busy: devicesBusy, error: devicesError, change } = useListChanges(usePushDevicesQuery());
  const topicQuery = useNtfyTopicQuery();
  const saved = topicQuery.data?.url ?? null;
  const [topic, setTopicText] = useState<string | null>(null);
  const [thisEndpoint, setThisEndpoint] = useState<string | null>(null);
  const [tested, setTested] = useState(false);
  const supported = pushSupported();

  useEffect(() => {
    if (!supported) return;
    void currentSubscription().then((subscription) => setThisEndpoint(subscription?.endpoint ?? null));
  }, [supported]);

  const thisDevice = devices?.find((device) => device.endpoint === thisEndpoint) ?? null;
  const busy = devicesBusy || topicQuery.isFetching;

  const turnOn = () =>
    void change(async () => {
      const body = await subscribeThisDevice((await vapidKey().unwrap()).public_key);
      await addDevice(body).unwrap();
      setThisEndpoint(body.endpoint);
    });

  const turnOff = (device: PushDevice) =>
    void change(async () => {
      await removeDevice(device.id).unwrap();
      if (device.endpoint === thisEndpoint) {
        await (await currentSubscription())?.unsubscribe();
        setThisEndpoint(null);
      }
    });

  function saveTopic(event: FormEvent) {
    event.preventDefault();
    const url = (topic ?? saved ?? '').trim();
    void change(async () => {
      await setTopic({ url: url === '' ? null : url }).unwrap();
      setTopicText(null);
      setTested(false);
    });
  }

  const clearTopic = () =>
    void change(async () => {
      await setTopic({ url: null }).unwrap();
      setTopicText(null);
      setTested(false);
    });

  const sendTest = () =>
    void change(async () => {
      setTested(false);
      await testNtfy().unwrap();
      setTested(true);
    });

  return (
    <section id="notices" className="mt-4">
      <h2 className="h5">Notices</h2>
      <p className="text-muted small">
        A task’s notices go by e-mail to its addresses. They can also come to this browser or phone as push notices, with a
        Done button that completes the occurrence, and to an ntfy topic.
      </p>
      <OperationError message={devicesError} id="notices-error" />
      <h3 className="h6">Push notices</h3>
      {!supported ? (
        <p className="small" id="push-unsupported">
          This browser cannot get push notices here (they need a browser that supports them and an https address). On a
          phone, add the app to the home screen first.
        </p>
      ) : thisDevice === null ? (
        <Button id="push-on" onClick={turnOn} disabled={busy}>
          Get push notices on this device
        </Button>
      ) : (
        <p className="small" id="push-this-device">
          This device gets push notices.
        </p>
      )}
      {devices !== null && devices.length > 0 && (
        <Table size="sm" className="mt-2" id="push-devices">
          <thead>
            <tr>
              <th>Device</th>
              <th>Added</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {devices.map((device) => (
              <tr key={device.id}>
                <td>{device === thisDevice ? 'This device' : `Through ${serviceOf(device)}`}</td>
                <td>{formatDateTime(device.created_at)}</td>
                <td className="text-end">
                  <Button size="sm" variant="outline-danger" onClick={() => turnOff(device)} disabled={busy}>
                    Stop
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <h3 className="h6 mt-3">ntfy</h3>
      <Form onSubmit={saveTopic} id="ntfy-form">
        <Form.Label htmlFor="ntfy-url">Topic address</Form.Label>
        <InputGroup>
          <Form.Control
            id="ntfy-url"
            type="url"
            placeholder="https://ntfy.sh/a-topic-only-you-know"
            value={topic ?? saved ?? ''}
            maxLength={2000}
            onChange={(event) => setTopicText(event.target.value)}
          />
          <Button type="submit" id="ntfy-save" disabled={busy || topic === null}>
            Save
          </Button>
        </InputGroup>
      </Form>
      {saved !== null && (
        <div className="mt-2">
          <Button variant="outline-secondary" id="ntfy-test" onClick={sendTest} disabled={busy}>
            Send a test
          </Button>{' '}
          <Button variant="outline-danger" id="ntfy-clear" onClick={clearTopic} disabled={busy}>
            Clear
          </Button>{' '}
          {tested && (
            <span className="small" id="ntfy-tested">
              Sent: it should show in the ntfy app now.
            </span>
          )}
        </div>
      )}
    </section>
  );
}
