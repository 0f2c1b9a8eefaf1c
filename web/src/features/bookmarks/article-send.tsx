import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import type { SendBookReply } from '../../../../contract/e-readers.ts';
import { errorMessage } from '../../api/api-error.ts';
import { fileSize } from '../../lib/file-size.ts';
import { useArticleDevicesQuery, useSendArticleMutation } from './article-send.api.ts';

type Result = { ok: true; reply: SendBookReply } | { ok: false; message: string };

const resultText = (reply: SendBookReply) =>
  reply.delivery === 'sent'
    ? `Sent to ${reply.device}: EPUB (${fileSize(reply.size)}) mailed to ${reply.email}.`
    : `Kept for ${reply.device} in the server’s outbox: EPUB (${fileSize(reply.size)}). This server has no mail server set up (SMTP_URL), so nothing left it.`;

/**
 * "Send to e-reader" in the reader view (issue 39): the kept copy as an EPUB, mailed by the server to
 * one of the user's e-readers, as a book is from its page. Nothing shows without an e-reader address.
 */
export function ArticleSend({ bookmarkId }: { bookmarkId: number }) {
  const devices = useArticleDevicesQuery();
  const [sendArticle, sending] = useSendArticleMutation();
  const [deviceId, setDeviceId] = useState<string | null>(null);
  const [result, setResult] = useState<Result | null>(null);
  if (!devices.data || devices.data.length === 0) return null;
  const device = devices.data.find((candidate) => candidate.id === deviceId) ?? devices.data[0]!;

  async function send() {
    setResult(null);
    try {
      setResult({ ok: true, reply: await sendArticle({ bookmarkId, device_id: device.id }).unwrap() });
    } catch (failure) {
      setResult({ ok: false, message: errorMessage(failure) });
    }
  }

  return (
    <div className="d-flex flex-wrap align-items-center gap-2" id="article-send">
      <Form.Select
        size="sm"
        className="w-auto mw-100"
        aria-label="E-reader"
        value={device.id}
        onChange={(event) => {
          setDeviceId(event.target.value);
          setResult(null);
        }}
      >
        {devices.data.map((candidate) => (
          <option key={candidate.id} value={candidate.id}>
            {candidate.name}
          </option>
        ))}
      </Form.Select>
      <Button size="sm" variant="outline-primary" id="send-article" onClick={() => void send()} disabled={sending.isLoading}>
        {sending.isLoading ? 'Sending…' : 'Send to e-reader'}
      </Button>
      {result !== null && (
        <span role="status" id="article-send-result" className={`small ${result.ok ? 'text-success' : 'text-danger'}`}>
          {result.ok ? resultText(result.reply) : result.message}
        </span>
      )}
    </div>
  );
}
