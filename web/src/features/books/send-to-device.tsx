import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { Link } from 'react-router';
import type { SendBookReply } from '../../../../contract/e-readers.ts';
import { errorMessage } from '../../api/api-error.ts';
import { fileSize } from '../../lib/file-size.ts';
import { useSendBookMutation, useSendOptionsQuery } from './send-to-device.api.ts';

type Result = { ok: true; reply: SendBookReply } | { ok: false; message: string };

function resultText(reply: SendBookReply): string {
  const what = `${reply.format.toUpperCase()} (${fileSize(reply.size)})`;
  return reply.delivery === 'sent'
    ? `Sent to ${reply.device}: ${what} mailed to ${reply.email}.`
    : `Kept for ${reply.device} in the server’s outbox: ${what}. This server has no mail server set up (SMTP_URL), so nothing left it.`;
}

/**
 * "Send" on a book's page: one of the user's e-readers, one of the book's formats that device takes
 * (EPUB first, where it takes it), mailed by the server. A file over the device's limit is refused
 * here before anything is asked of the server, which checks it again.
 */
export function SendToDevice({ bookId }: { bookId: string }) {
  const options = useSendOptionsQuery(bookId);
  const [sendBook, sending] = useSendBookMutation();
  const [deviceId, setDeviceId] = useState<string | null>(null);
  const [format, setFormat] = useState<string | null>(null);
  const [result, setResult] = useState<Result | null>(null);

  if (options.data === undefined) return null;
  if (options.data.length === 0) {
    return (
      <p className="small text-muted" id="send-to-device-none">
        {'To send books to your Kindle or another e-reader, add its address in your '}
        <Link to="/profile#e-readers">profile</Link>.
      </p>
    );
  }

  const option = options.data.find((candidate) => candidate.device.id === deviceId) ?? options.data[0]!;
  const chosen = option.formats.find((candidate) => candidate.format === format) ?? option.formats[0];
  const tooLarge = chosen !== undefined && !chosen.fits;

  async function send() {
    if (chosen === undefined) return;
    setResult(null);
    try {
      setResult({ ok: true, reply: await sendBook({ bookId, device_id: option.device.id, format: chosen.format }).unwrap() });
    } catch (failure) {
      setResult({ ok: false, message: errorMessage(failure) });
    }
  }

  return (
    <div className="mb-3" id="send-to-device">
      <div className="d-flex flex-wrap align-items-center gap-2">
        <Form.Label htmlFor="send-device" className="mb-0">
          Send to
        </Form.Label>
        <Form.Select
          id="send-device"
          className="w-auto mw-100"
          value={option.device.id}
          onChange={(event) => {
            setDeviceId(event.target.value);
            setFormat(null);
            setResult(null);
          }}
        >
          {options.data.map((candidate) => (
            <option key={candidate.device.id} value={candidate.device.id}>
              {candidate.device.name}
            </option>
          ))}
        </Form.Select>
        <Form.Select
          id="send-format"
          className="w-auto"
          aria-label="Format"
          value={chosen?.format ?? ''}
          disabled={chosen === undefined}
          onChange={(event) => {
            setFormat(event.target.value);
            setResult(null);
          }}
        >
          {option.formats.map((candidate) => (
            <option key={candidate.format} value={candidate.format}>
              {`${candidate.format.toUpperCase()} (${fileSize(candidate.size)})`}
            </option>
          ))}
        </Form.Select>
        <Button id="send-book" onClick={() => void send()} disabled={chosen === undefined || tooLarge || sending.isLoading}>
          {sending.isLoading ? 'Sending…' : 'Send'}
        </Button>
      </div>
      {chosen === undefined && (
        <p className="small text-danger mt-1 mb-0" id="send-no-format">
          {`${option.device.name} takes none of this book’s formats by e-mail.`}
        </p>
      )}
      {tooLarge && (
        <p className="small text-danger mt-1 mb-0" id="send-too-large">
          {`The ${chosen.format.toUpperCase()} file is ${fileSize(chosen.size)}, more than the ${option.device.max_mb} MB that ${option.device.name} takes.`}
        </p>
      )}
      {result !== null && (
        <Alert variant={result.ok ? 'success' : 'danger'} className="mt-2 mb-0" id="send-result" role="status">
          {result.ok ? resultText(result.reply) : result.message}
        </Alert>
      )}
    </div>
  );
}
