import { useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import ProgressBar from 'react-bootstrap/ProgressBar';
import type { BookmarkImportProgress, BookmarkImportReply, CutShortBookmarkImport } from '../../../../contract/bookmarks.ts';
import { errorMessage } from '../../api/api-error.ts';
import { formatDateTime } from '../../lib/format-date.ts';
import { megabytes, percent } from '../../lib/progress.ts';
import {
  useCutShortImportQuery,
  useDismissCutShortImportMutation,
  useExportBookmarksMutation,
  useImportBookmarksMutation,
  useImportProgressQuery,
} from './bookmarks.api.ts';

/** How often the server's counts are asked for while it reads the file. */
const PROGRESS_POLL_MS = 500;

/** Issue 18: the bytes sent, then, while the server reads, the importer's counts. */
type ImportPhase = { sending: { sent: number; total: number } } | { reading: BookmarkImportProgress | null };

/** Import of a browser's bookmarks file and export to one (issue 4), above the list. */
export function BookmarkFileButtons({ onImported }: { onImported: () => Promise<void> }) {
  const picker = useRef<HTMLInputElement>(null);
  const [result, setResult] = useState<{ reply: BookmarkImportReply } | { error: string } | null>(null);
  const [working, setWorking] = useState(false);
  const [phase, setPhase] = useState<ImportPhase | null>(null);
  // Asked once, and again after each import (importing the same file again finishes one cut short):
  // a return to the list, which keeps its cards, asks the server nothing.
  const cutShort = useCutShortImportQuery(undefined, { refetchOnMountOrArgChange: false }).data ?? null;
  const [dismissCutShort] = useDismissCutShortImportMutation();
  const [importBookmarks] = useImportBookmarksMutation();
  const [exportBookmarks] = useExportBookmarksMutation();
  const serverReads = phase !== null && 'reading' in phase;
  // Polled, not streamed: only the importing page asks, and only while the server reads its file.
  const { data: counts = null } = useImportProgressQuery(undefined, { skip: !serverReads, pollingInterval: PROGRESS_POLL_MS });

  async function upload(file: File) {
    setWorking(true);
    setPhase({ sending: { sent: 0, total: file.size } });
    try {
      const reply = await importBookmarks({
        file,
        onProgress: (sent, total) => setPhase(sent < total ? { sending: { sent, total } } : { reading: null }),
      }).unwrap();
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

  async function dismiss(id: string) {
    try {
      await dismissCutShort(id).unwrap();
    } catch (error) {
      setResult({ error: `could not dismiss: ${errorMessage(error)}` });
    }
  }

  async function download() {
    try {
      await exportBookmarks().unwrap();
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
      {cutShort !== null && !working && (
        <CutShortNotice cutShort={cutShort} onFinish={() => picker.current?.click()} onDismiss={() => void dismiss(cutShort.id)} />
      )}
      {phase !== null && <ImportProgress phase={serverReads ? { reading: counts } : phase} />}
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
      {result !== null && 'reply' in result && result.reply.skipped_links.length > 0 && (
        <details className="small mb-0 import-skipped">
          <summary>{`Skipped (${result.reply.skipped})`}</summary>
          <ul className="mb-0">
            {result.reply.skipped_links.map((skipped) => (
              <li key={skipped.line}>
                {`line ${skipped.line}: `}
                <span className="text-break">{skipped.link || '(no link)'}</span>
                {` — ${skipped.reason}`}
              </li>
            ))}
          </ul>
          {result.reply.skipped > result.reply.skipped_links.length && <p className="mb-0">{`and ${result.reply.skipped - result.reply.skipped_links.length} more`}</p>}
        </details>
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

/** Issue 34: an import that stopped before the end left what it had added; the same file finishes it. */
function CutShortNotice({ cutShort, onFinish, onDismiss }: { cutShort: CutShortBookmarkImport; onFinish: () => void; onDismiss: () => void }) {
  return (
    <Alert variant="warning" className="mt-2 mb-0 py-2 small" id="bookmark-import-cut-short">
      <p className="mb-2">
        {`Your import of ${formatDateTime(cutShort.started_at)} was cut short after adding ${cutShort.imported.toLocaleString('en')} ` +
          `bookmarks from its file's ${cutShort.links.toLocaleString('en')} links. Import the same file again to add the rest: ` +
          'the links already added are skipped.'}
      </p>
      <div className="d-flex gap-2">
        <Button variant="warning" size="sm" onClick={onFinish}>
          Finish the import
        </Button>
        <Button variant="outline-secondary" size="sm" onClick={onDismiss}>
          Dismiss
        </Button>
      </div>
    </Alert>
  );
}
