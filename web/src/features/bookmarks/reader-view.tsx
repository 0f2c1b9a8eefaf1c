import { useCallback, useEffect, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import ButtonGroup from 'react-bootstrap/ButtonGroup';
import { Link, useParams } from 'react-router';
import { readingMinutes } from '../../../../contract/bookmark-archives.ts';
import { LoadingSpinner } from '../../components/loading-spinner.tsx';
import { ArticleSend } from './article-send.tsx';
import { useArchiveQuery, useReaderPageQuery } from './bookmark-archive.api.ts';
import { useApiDispatch } from '../../api/api.ts';
import { useBookmarksDispatch } from './bookmarks.slice.ts';
import { finishReading } from './bookmarks.thunks.ts';
import { loadReaderViewSettings, nextFontSize, type ReaderViewSettings, saveReaderViewSettings } from './reader-settings.ts';
import { useReachedEnd } from './use-reached-end.ts';
import './bookmarks.css';

/**
 * The frame runs nothing (no `allow-scripts`); `allow-same-origin` lets this page set the theme
 * and size on it and measure it, and `allow-popups` opens the article's links in a new tab, out
 * of the sandbox. The document carries its own policy (no script, nothing from the network).
 */
const SANDBOX = 'allow-same-origin allow-popups allow-popups-to-escape-sandbox';

/**
 * The reader view of a bookmark's kept copy (docs/behaviour/bookmarks.md, "Kept copies"), at
 * `/bookmark/:id/read`: the sanitised page in a sandboxed frame as tall as the page, light or
 * dark, at the size chosen. Past its end it shows "Finished", and an unread bookmark is read.
 */
export function ReaderView() {
  const id = Number(useParams().id);
  const page = useReaderPageQuery(id);
  const archive = useArchiveQuery(id);
  const [settings, setSettings] = useState<ReaderViewSettings>(loadReaderViewSettings);
  const [loaded, setLoaded] = useState(false);
  const frame = useRef<HTMLIFrameElement>(null);
  const end = useRef<HTMLDivElement>(null);
  const finished = useReachedEnd(end, loaded);
  // Reaching the end reads it (issue 39): an unread bookmark becomes read, once; an archived one stays archived.
  const calls = useApiDispatch();
  const dispatch = useBookmarksDispatch();
  useEffect(() => {
    if (!finished) return;
    const leave = new AbortController();
    void dispatch(finishReading(calls, id, leave.signal));
    return () => leave.abort();
  }, [finished, id, calls, dispatch]);

  const change = (next: Partial<ReaderViewSettings>) =>
    setSettings((current) => {
      const changed = { ...current, ...next };
      saveReaderViewSettings(changed);
      return changed;
    });

  /** Sets the theme and size on the page, and the frame to the page's height, so the app's page scrolls and not the frame. */
  const fit = useCallback(() => {
    const document = frame.current?.contentDocument;
    if (!frame.current || !document?.documentElement) return;
    document.documentElement.dataset.theme = settings.theme;
    document.documentElement.style.fontSize = `${settings.fontSize}%`;
    frame.current.style.height = `${document.documentElement.scrollHeight}px`;
  }, [settings]);
  useEffect(fit, [fit]);

  if (page.isLoading) return <LoadingSpinner />;
  if (page.isError || page.data === undefined) {
    return (
      <Alert variant="warning">
        No copy of this page is kept. <Link to={`/bookmark/${id}`}>Back to the bookmark</Link>
      </Alert>
    );
  }
  return (
    <section className="reader-view" data-theme={settings.theme}>
      <div className="d-flex flex-wrap align-items-center gap-2 mb-2 reader-view-bar">
        <Link to={`/bookmark/${id}`}>← Bookmark</Link>
        {archive.data && <span className="text-muted small">{readingMinutes(archive.data.words)} min read</span>}
        <ArticleSend bookmarkId={id} />
        <ButtonGroup size="sm" className="ms-auto" aria-label="Theme">
          <Button variant={settings.theme === 'light' ? 'secondary' : 'outline-secondary'} onClick={() => change({ theme: 'light' })} aria-pressed={settings.theme === 'light'}>
            Light
          </Button>
          <Button variant={settings.theme === 'dark' ? 'secondary' : 'outline-secondary'} onClick={() => change({ theme: 'dark' })} aria-pressed={settings.theme === 'dark'}>
            Dark
          </Button>
        </ButtonGroup>
        <ButtonGroup size="sm" aria-label="Font size">
          <Button variant="outline-secondary" onClick={() => change({ fontSize: nextFontSize(settings.fontSize, -1) })} aria-label="Smaller text">
            A−
          </Button>
          <Button variant="outline-secondary" onClick={() => change({ fontSize: nextFontSize(settings.fontSize, 1) })} aria-label="Larger text">
            A+
          </Button>
        </ButtonGroup>
      </div>
      <iframe
        ref={frame}
        title="Kept copy"
        className="reader-view-frame"
        sandbox={SANDBOX}
        srcDoc={page.data}
        onLoad={() => {
          fit();
          setLoaded(true);
        }}
      />
      <div ref={end} className="reader-view-end">
        {finished && (
          <p role="status" id="reader-finished" className="text-muted text-center my-3">
            Finished
          </p>
        )}
      </div>
    </section>
  );
}
