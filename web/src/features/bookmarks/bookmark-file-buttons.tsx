import { useEffect, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import ProgressBar from 'react-bootstrap/ProgressBar';
import type { BookmarkImportProgress, BookmarkImportReply } from '../../../../contract/bookmarks.ts';
import { errorMessage } from '../../api/api-error.ts';
import { useApiClient } from '../../api/api-client-context.ts';
import { megabytes, percent } from '../../lib/progress.ts';
import { bookmarkImportProgress, exportBookmarks, importBookmarks } from './bookmarks.api.ts';

/** How often the server's counts are asked for while it reads the file. */
const PROGRESS_POLL_MS = 500;

/** Issue 18: the bytes sent, then, while the server reads, the importer's counts. */
type ImportPhase = { sending: { sent: number; total: number } } | { reading: BookmarkImportProgress | null };

/** Import of a browser's bookmarks file and export to one (issue 4), above the list. */
export function BookmarkFileButtons({ onImported }: { onImported: () => Promise<void> }) {
  const client = useApiClient();
  const picker = useRef<HTMLInputElement>(null);
  const [result, setResult] = useState<{ reply: BookmarkImportReply } | { error: string } | null>(null);
  const [working, setWorking] = useState(false);
  const [phase, setPhase] = useState<ImportPhase | null>(null);
  const serverReads = phase !== null && 'reading' in phase;

  // Polled, not streamed: only the importing page asks, and only while the server reads its file.
  useEffect(() => {
    if (!serverReads) return;
    const stop = new AbortController();
    const timer = setInterval(() => {
      bookmarkImportProgress(client, stop.signal).then(
        (progress) => !stop.signal.aborted && setPhase((now) => (now !== null && 'reading' in now ? { reading: progress } : now)),
        () => {},
      );
    }, PROGRESS_POLL_MS);
    return () => {
      clearInterval(timer);
      stop.abort();
    };
  }, [client, serverReads]);

  async function upload(file: File) {
    setWorking(true);
    setPhase({ sending: { sent: 0, total: file.size } });
    try {
      const reply = await importBookmarks(client, file, (sent, total) =>
        setPhase(sent < total ? { sending: { sent, total } } : { reading: null }),
      );
      setResult({ reply });
      await onImported();
    } catch (error) {
      setResult({ error: `import failed: ${errorMessage(error)}` });
    } finally {
      setWorking(false);
      setPhase(null);
      if (picker.current) picker.current.value = '';
    }
  }

  async function download() {
    try {
      const url = URL.createObjectURL(await exportBookmarks(client));
      const link = document.createElement('a');
      link.href = url;
      link.download = 'bookmarks.html';
      link.click();
      // The click has handed the file to the browser's download by the next task.
      setTimeout(() => URL.revokeObjectURL(url), 0);
    } catch (error) {
      setResult({ error: `export failed: ${errorMessage(error)}` });
    }
  }

  return (
    <div className="mb-3">
      <div className="d-flex flex-wrap gap-2">
        <input
          ref={picker}
          type="file"
          accept=".html,.htm,text/html"
          className="d-none"
          aria-label="Bookmarks file to import"
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file) void upload(file);
          }}
        />
        <Button variant="outline-secondary" size="sm" onClick={() => picker.current?.click()} disabled={working}>
          Import bookmarks file
        </Button>
        <Button variant="outline-secondary" size="sm" onClick={() => void download()}>
          Export bookmarks file
        </Button>
      </div>
      {phase !== null && <ImportProgress phase={phase} />}
      {result !== null && 'reply' in result && (
        <p className="small text-success mt-2 mb-0 import-result">
          {`imported: ${result.reply.imported}, skipped: ${result.reply.skipped}, errors: ${result.reply.errors.length}` +
            (result.reply.shortened > 0 ? `, shortened: ${result.reply.shortened}` : '') +
            (result.reply.undated > 0 ? `, undated: ${result.reply.undated}` : '')}
        </p>
      )}
      {result !== null && 'reply' in result && result.reply.cut_short && (
        <p className="small text-warning mb-0">The file ends before its list does: it was cut short, and only what it holds was imported.</p>
      )}
      {result !== null && 'reply' in result && result.reply.errors.length > 0 && (
        <ul className="small text-danger mb-0">
          {result.reply.errors.map((error) => (
            <li key={error.line}>{`line ${error.line}: ${error.message}`}</li>
          ))}
        </ul>
      )}
      {result !== null && 'error' in result && <p className="small text-danger mt-2 mb-0">{result.error}</p>}
    </div>
  );
}

function ImportProgress({ phase }: { phase: ImportPhase }) {
  if ('sending' in phase) {
    const { sent, total } = phase.sending;
    return (
      <div className="mt-2" id="bookmark-import-progress">
        <ProgressBar now={percent(sent, total)} aria-label="bytes sent" className="mb-1" />
        <p className="small mb-0" role="status">{`sending: ${megabytes(sent)} of ${megabytes(total)}`}</p>
      </div>
    );
  }
  const progress = phase.reading;
  return (
    <p className="small mt-2 mb-0" role="status" id="bookmark-import-progress">
      {progress === null || progress.phase === 'receiving'
        ? 'the server is reading the file…'
        : `reading: ${progress.read.toLocaleString('en')} entries, ${progress.imported.toLocaleString('en')} imported, ` +
          `${progress.skipped.toLocaleString('en')} skipped, ${progress.errors.toLocaleString('en')} errors`}
    </p>
  );
}
