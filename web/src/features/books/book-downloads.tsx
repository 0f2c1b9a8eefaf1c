import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import type { BookFile } from '../../../../contract/books.ts';
import { errorMessage } from '../../api/api-error.ts';
import { fileSize } from '../../lib/file-size.ts';
import { useDownloadBookFileMutation } from './library-files.api.ts';

/** One button per format on disk; none when the library folder has none (or there is no library folder). */
export function BookDownloads({ files }: { files: readonly BookFile[] }) {
  const [downloadBookFile] = useDownloadBookFileMutation();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (files.length === 0) return null;

  async function download(file: BookFile) {
    setBusy(file.format);
    setError(null);
    try {
      await downloadBookFile(file).unwrap();
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(null);
    }
  }

  return (
    <div className="mb-3 book-downloads">
      <div className="d-flex flex-wrap gap-2">
        {files.map((file) => (
          <button
            key={file.format}
            type="button"
            className="btn btn-primary"
            disabled={busy !== null}
            onClick={() => void download(file)}
            aria-label={`Download ${file.format.toUpperCase()} (${fileSize(file.size)})`}
          >
            {`Download ${file.format.toUpperCase()}`}
            <span className="small ms-1 opacity-75">{fileSize(file.size)}</span>
          </button>
        ))}
      </div>
      {error !== null && (
        <Alert variant="danger" className="mt-2 mb-0">
          {error}
        </Alert>
      )}
    </div>
  );
}
