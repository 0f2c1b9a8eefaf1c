import ProgressBar from 'react-bootstrap/ProgressBar';
import type { CatalogueLoad } from '../../../../contract/books.ts';
import { percent } from '../../lib/progress.ts';
import { isLoadRunning, loadingBarText } from './catalogue-load-text.ts';

/**
 * Issue 18: while a load runs (an upload or the library folder), a slim bar over the results,
 * which go on coming from the old catalogue until the new one is in.
 */
export function CatalogueLoadBar({ load }: { load: CatalogueLoad | null }) {
  if (load === null || !isLoadRunning(load)) return null;
  const now = load.phase === 'receiving' ? percent(load.bytes, load.total_bytes) : percent(load.read, load.estimated_total);
  return (
    <div id="catalogue-load-bar" className="mb-3">
      <ProgressBar now={now} style={{ height: '4px' }} aria-label="catalogue load" />
      <p className="small text-muted mb-0" role="status">
        {loadingBarText(load)}
      </p>
    </div>
  );
}
