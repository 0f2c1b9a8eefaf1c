import { useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import ProgressBar from 'react-bootstrap/ProgressBar';
import Spinner from 'react-bootstrap/Spinner';
import type { CatalogueLoad, IndexUploadReply } from '../../../../contract/books.ts';
import { errorMessage } from '../../api/api-error.ts';
import { useCancelCatalogueLoadMutation, useUploadIndexMutation } from './catalogue-load.api.ts';
import { megabytes, percent } from '../../lib/progress.ts';
import { isLoadRunning, serverPhaseText, timeLeftText } from './catalogue-load-text.ts';
import type { CatalogueLoadState } from './use-catalogue-load.ts';
import { formatDateTime } from '../../lib/format-date.ts';

export type UploadStatus =
  | { state: 'idle' }
  /** The file's bytes leaving the browser. */
  | { state: 'sending'; sent: number; total: number }
  /** All sent: the server reads and writes (its progress comes by the loads' stream). */
  | { state: 'loading' }
  | { state: 'done'; reply: IndexUploadReply }
  | { state: 'failed'; message: string }
  | { state: 'cancelled' };

export interface IndexUpload {
  file: File | null;
  status: UploadStatus;
  /** Changes whenever the chosen file is dropped, so that the file input is made afresh and empty. */
  inputKey: number;
  /** A file is chosen and not yet loaded, or an upload runs (this page's, or one seen after a reload): 'Cancel Upload' is offered. */
  cancellable: boolean;
  choose(file: File | null): void;
  /** 'Cancel Upload': forgets the file, and stops its upload at either phase if one is under way. */
  cancel(): void;
  upload(): Promise<void>;
}

export const CANCELLED_TEXT = 'Upload cancelled: the catalogue is as it was.';

/** An upload that runs now, whoever's: the one Cancel Upload stops. */
export const runningUpload = (load: CatalogueLoad | null) => (load && load.kind === 'upload' && isLoadRunning(load) ? load : null);

/**
 * The index upload's state lives with the modal, which outlives the dialog's body between openings.
 * `onLoaded` hears each upload that went through, so that the list can show the catalogue as it is now.
 */
export function useIndexUpload(onLoaded: () => void, catalogueLoad: CatalogueLoadState): IndexUpload {
  const [file, setFile] = useState<File | null>(null);
  const [inputKey, setInputKey] = useState(0);
  const [sent, setSent] = useState({ sent: 0, total: 0 });
  const [cancelled, setCancelled] = useState(false);
  const [send, sending] = useUploadIndexMutation();
  const [cancelLoad] = useCancelCatalogueLoadMutation();
  const request = useRef<{ abort(): void } | null>(null);
  const running = runningUpload(catalogueLoad.load);

  function choose(chosen: File | null) {
    // Aborted and forgotten: the mutation's state no longer follows that request, so its end shows nothing.
    request.current?.abort();
    request.current = null;
    sending.reset();
    setCancelled(false);
    setFile(chosen);
  }

  function cancel() {
    const underWay = running !== null || sending.isLoading;
    // Once the file is in, the load goes on without its request (a reload must not stop it): it is cancelled by name.
    if (running) {
      cancelLoad(running.id)
        .unwrap()
        .catch((error: unknown) => console.warn('The load could not be cancelled', error));
    }
    choose(null);
    setInputKey((key) => key + 1);
    if (underWay) setCancelled(true);
  }

  async function upload() {
    if (file === null) return;
    setCancelled(false);
    setSent({ sent: 0, total: file.size });
    const call = send({ file, onProgress: (bytes, total) => setSent({ sent: bytes, total }) });
    request.current = call;
    try {
      await call.unwrap();
      onLoaded();
    } catch {
      // The mutation's state shows the failure; an upload cancelled shows as cancelled.
    }
  }

  const status: UploadStatus = cancelled
    ? { state: 'cancelled' }
    : sending.isLoading
      ? sent.sent < sent.total
        ? { state: 'sending', ...sent }
        : { state: 'loading' }
      : sending.isSuccess
        ? { state: 'done', reply: sending.data }
        : sending.isError
          ? { state: 'failed', message: errorMessage(sending.error) }
          : { state: 'idle' };

  // Once this page's load has ended (done, failed, cancelled) there is nothing left to cancel (issue 37).
  const ended = status.state === 'done' || status.state === 'failed' || status.state === 'cancelled';
  return { file, status, inputKey, cancellable: running !== null || (file !== null && !ended), choose, cancel, upload };
}

/** Index upload (docs/behaviour/books.md): a file picker with an upload button, the file's details, then the result. */
export function IndexUploadSection({ upload, catalogueLoad }: { upload: IndexUpload; catalogueLoad: CatalogueLoadState }) {
  const { file, status } = upload;
  const busy = status.state === 'sending' || status.state === 'loading';
  return (
    <section aria-labelledby="index-upload-title" className="border-top pt-3 mt-3">
      <h3 id="index-upload-title" className="h6">
        Index upload
      </h3>
      <Form.Group controlId="index-file" className="mb-2">
        <Form.Label>Index file</Form.Label>
        <InputGroup>
          <Form.Control
            key={upload.inputKey}
            type="file"
            onChange={(event) => upload.choose((event.target as HTMLInputElement).files?.[0] ?? null)}
          />
          <Button
            variant="outline-primary"
            onClick={() => void upload.upload()}
            disabled={file === null || busy}
          >
            Upload
          </Button>
        </InputGroup>
      </Form.Group>
      {file !== null && <FileDetails file={file} />}
      <UploadProgress status={status} catalogueLoad={catalogueLoad} />
      <UploadResult status={status} />
    </section>
  );
}

function FileDetails({ file }: { file: File }) {
  return (
    <dl className="row small mb-2" id="index-file-details">
      <dt className="col-3">name</dt>
      <dd className="col-9 text-break mb-0">{file.name}</dd>
      <dt className="col-3">type</dt>
      <dd className="col-9 mb-0">{file.type === '' ? 'unknown' : file.type}</dd>
      <dt className="col-3">size</dt>
      <dd className="col-9 mb-0">{`${file.size} bytes`}</dd>
      <dt className="col-3">modified</dt>
      <dd className="col-9 mb-0">{formatDateTime(file.lastModified)}</dd>
    </dl>
  );
}

/**
 * Issue 18: the bytes sent, then the server's own counts as it reads and writes, with the time left
 * once the rate is steady. A running upload seen after a reload shows its server phase too.
 */
function UploadProgress({ status, catalogueLoad }: { status: UploadStatus; catalogueLoad: CatalogueLoadState }) {
  if (status.state === 'sending') {
    return (
      <div id="index-upload-progress" className="mb-2">
        <ProgressBar now={percent(status.sent, status.total)} aria-label="bytes sent" className="mb-1" />
        <p className="small mb-0" role="status">{`sending: ${megabytes(status.sent)} of ${megabytes(status.total)}`}</p>
      </div>
    );
  }
  const load = runningUpload(catalogueLoad.load);
  if (status.state !== 'loading' && load === null) return null;
  if (load === null || load.phase === 'receiving') {
    return (
      <p className="small mb-2" role="status" id="index-upload-progress">
        <Spinner animation="border" size="sm" className="me-2" aria-hidden="true" />
        the server is reading the file…
      </p>
    );
  }
  const left = catalogueLoad.timeLeftMs;
  return (
    <div id="index-upload-progress" className="mb-2">
      <ProgressBar now={percent(load.read, load.estimated_total)} variant="info" aria-label="records read" className="mb-1" />
      <p className="small mb-0" role="status">
        {serverPhaseText(load)}
        {left !== null && `, ${timeLeftText(left)}`}
      </p>
    </div>
  );
}

function UploadResult({ status }: { status: UploadStatus }) {
  switch (status.state) {
    case 'idle':
    case 'sending':
    case 'loading':
      return null;
    case 'cancelled':
      return (
        <p className="text-secondary mb-0" role="status" id="index-upload-result">
          {CANCELLED_TEXT}
        </p>
      );
    case 'failed':
      return (
        <p className="text-danger mb-0" role="alert" id="index-upload-result">
          {`indexing failed: ${status.message}`}
        </p>
      );
    case 'done': {
      const { total_count, error_count, errors } = status.reply;
      return (
        <div id="index-upload-result">
          <p className="text-success mb-1" role="status">{`total: ${total_count}, error: ${error_count}`}</p>
          {errors.length > 0 && (
            <ul className="small text-danger mb-0">
              {errors.map((problem, at) => (
                <li key={at}>{`line ${problem.line}: ${problem.message}`}</li>
              ))}
            </ul>
          )}
        </div>
      );
    }
  }
}
