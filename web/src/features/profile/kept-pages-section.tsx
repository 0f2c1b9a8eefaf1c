import ProgressBar from 'react-bootstrap/ProgressBar';
import { LoadingSpinner } from '../../components/loading-spinner.tsx';
import { failureOf } from '../../api/api.ts';
import { OperationError } from '../../components/operation-error.tsx';
import { fileSize } from '../../lib/file-size.ts';
import { useKeptPagesUsageQuery } from './kept-pages.api.ts';

/** The space the user's kept copies of bookmarked pages take, against their quota (docs/behaviour/bookmarks.md, "Kept copies"). */
export function KeptPagesSection() {
  const usage = useKeptPagesUsageQuery();
  return (
    <section id="kept-pages" className="mt-4">
      <h2 className="h5">Kept pages</h2>
      {usage.isLoading && <LoadingSpinner />}
      <OperationError message={usage.error ? failureOf(usage.error).message : null} />
      {usage.data && (
        <>
          <p className="mb-1" id="kept-pages-usage">
            {usage.data.copies} {usage.data.copies === 1 ? 'page' : 'pages'} kept, {fileSize(usage.data.used_bytes)} of {fileSize(usage.data.quota_bytes)}
          </p>
          <ProgressBar now={usage.data.used_bytes} max={usage.data.quota_bytes} aria-label="Space used by kept pages" />
        </>
      )}
    </section>
  );
}
