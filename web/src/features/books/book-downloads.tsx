import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import type { BookFile } from '../../../../contract/books.ts';
import { useApiClient } from '../../api/api-client-context.ts';
import { downloadBookFile } from './library-files.api.ts';

const SIZE_UNITS = ['bytes', 'kB', 'MB', 'GB'];

function fileSize(bytes: number): string {
  let size = bytes;
  let unit = 0;
  while (size >= 1000 && unit < SIZE_UNITS.length - 1) {
    size /= 1000;
    unit += 1;
  }
  return `${unit === 0 ? size : size.toFixed(1)} ${SIZE_UNITS[unit]}`;
}

/** One button per format on disk; none when the library folder has none (or there is no library folder). */
export function BookDownloads({ files }: { files: readonly BookFile[] }) {
  const client = useApiClient();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (files.length === 0) return null;

  async function download(file: BookFile) {
    setBusy(file.format);
    setError(null);
    try {
      await downloadBookFile(client, file);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
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
