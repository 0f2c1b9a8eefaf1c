import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import Spinner from 'react-bootstrap/Spinner';
import type { IndexUploadReply } from '../../../../contract/books.ts';
import { errorMessage } from '../../api/api-error.ts';
import { useApiClient } from '../../api/api-client-context.ts';
import { useRequest } from '../../lib/use-request.ts';
import { uploadIndex } from './books.api.ts';
import { formatDateTime } from '../../lib/format-date.ts';

export type UploadStatus =
  | { state: 'idle' }
  | { state: 'uploading' }
  | { state: 'done'; reply: IndexUploadReply }
  | { state: 'failed'; message: string };

export interface IndexUpload {
  file: File | null;
  status: UploadStatus;
  /** Changes whenever the chosen file is dropped, so that the file input is made afresh and empty. */
  inputKey: number;
  choose(file: File | null): void;
  /** 'Cancel Upload': forgets the file, and stops its upload if one is under way. */
  cancel(): void;
  upload(): Promise<void>;
}

/**
 * The index upload's state lives with the modal, which outlives the dialog's body between openings.
 * `onLoaded` hears each upload that went through, so that the list can show the catalogue as it is now.
 */
export function useIndexUpload(onLoaded: () => void): IndexUpload {
  const client = useApiClient();
  const [file, setFile] = useState<File | null>(null);
  const [status, setStatus] = useState<UploadStatus>({ state: 'idle' });
  const [inputKey, setInputKey] = useState(0);
  const { run, cancel: stopUpload } = useRequest();

  function choose(chosen: File | null) {
    stopUpload();
    setFile(chosen);
    setStatus({ state: 'idle' });
  }

  function cancel() {
    choose(null);
    setInputKey((key) => key + 1);
  }

  async function upload() {
    if (file === null) return;
    setStatus({ state: 'uploading' });
    await run(async (signal) => {
      try {
        const reply = await uploadIndex(client, file, signal);
        if (signal.aborted) return;
        setStatus({ state: 'done', reply });
        onLoaded();
      } catch (error) {
        if (!signal.aborted) setStatus({ state: 'failed', message: errorMessage(error) });
      }
    });
  }

  return { file, status, inputKey, choose, cancel, upload };
}

/** Spec §2 Index upload: a file picker with an upload button, the file's details, then the result. */
export function IndexUploadSection({ upload }: { upload: IndexUpload }) {
  const { file, status } = upload;
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
            disabled={file === null || status.state === 'uploading'}
          >
            Upload
          </Button>
        </InputGroup>
      </Form.Group>
      {file !== null && <FileDetails file={file} />}
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

function UploadResult({ status }: { status: UploadStatus }) {
  switch (status.state) {
    case 'idle':
      return null;
    case 'uploading':
      return (
        <Spinner animation="border" size="sm" role="status">
          <span className="visually-hidden">Uploading…</span>
        </Spinner>
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
