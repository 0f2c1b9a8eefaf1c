import { useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import type { BookmarkImportReply } from '../../../../contract/bookmarks.ts';
import { errorMessage } from '../../api/api-error.ts';
import { useApiClient } from '../../api/api-client-context.ts';
import { exportBookmarks, importBookmarks } from './bookmarks.api.ts';

/** Import of a browser's bookmarks file and export to one (issue 4), above the list. */
export function BookmarkFileButtons({ onImported }: { onImported: () => Promise<void> }) {
  const client = useApiClient();
  const picker = useRef<HTMLInputElement>(null);
  const [result, setResult] = useState<{ reply: BookmarkImportReply } | { error: string } | null>(null);
  const [working, setWorking] = useState(false);

  async function upload(file: File) {
    setWorking(true);
    try {
      setResult({ reply: await importBookmarks(client, file) });
      await onImported();
    } catch (error) {
      setResult({ error: `import failed: ${errorMessage(error)}` });
    } finally {
      setWorking(false);
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
