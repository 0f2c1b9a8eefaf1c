import { useCallback, useEffect, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Offcanvas from 'react-bootstrap/Offcanvas';
import { Link, useParams } from 'react-router';
import { LoadingSpinner } from '../../components/loading-spinner.tsx';
import { EpubView } from './epub-view.tsx';
import { PdfView } from './pdf-view.tsx';
import { useReaderBookQuery, useReadingPositionQuery } from './reader.api.ts';
import { FONT_SIZES, loadReaderSettings, saveReaderSettings } from './reader-settings.ts';
import type { ReaderControls, ReaderLocation, ReaderSettings, ReaderTheme, TocEntry } from './reader-types.ts';
import { usePositionSaver } from './use-position-saver.ts';
import './reader.css';

const READABLE_FORMATS = ['epub', 'pdf', 'cbz'];

/** A page load, not a move within the app, made this document: the reader's CSP is the page's (docs/security.md). */
function loadedAsReader(): boolean {
  const navigation = performance.getEntriesByType('navigation')[0];
  return navigation !== undefined && /^\/book\/[^/]+\/read\//.test(new URL(navigation.name).pathname);
}

/** A horizontal swipe of at least this many CSS pixels turns the page (the PDF; foliate-js swipes its own). */
const SWIPE_PX = 50;

export function ReaderPage() {
  const { id = '', format = '' } = useParams();
  // The reader's frames need the reader page's CSP, which a move within the app does not bring.
  const [mustReload] = useState(() => !loadedAsReader());
  useEffect(() => {
    if (mustReload) window.location.reload();
  }, [mustReload]);
  const book = useReaderBookQuery(id);
  const position = useReadingPositionQuery(id);
  const [settings, setSettings] = useState<ReaderSettings>(loadReaderSettings);
  const [controls, setControls] = useState<ReaderControls | null>(null);
  const [toc, setToc] = useState<TocEntry[]>([]);
  const [showToc, setShowToc] = useState(false);
  const [location, setLocation] = useState<ReaderLocation | null>(null);
  const [error, setError] = useState<string | null>(null);
  const savePosition = usePositionSaver(id);

  const change = (next: Partial<ReaderSettings>) =>
    setSettings((current) => {
      const changed = { ...current, ...next };
      saveReaderSettings(changed);
      return changed;
    });

  const onReady = useCallback((ready: ReaderControls, entries: TocEntry[]) => {
    setControls(ready);
    setToc(entries);
  }, []);
  const onRelocate = useCallback(
    (at: ReaderLocation) => {
      setLocation(at);
      savePosition(at);
    },
    [savePosition],
  );

  useEffect(() => {
    const keys = (event: KeyboardEvent) => {
      if (event.target instanceof HTMLElement && event.target.closest('input, select, textarea')) return;
      if (event.key === 'ArrowRight') controls?.next();
      if (event.key === 'ArrowLeft') controls?.prev();
    };
    document.addEventListener('keydown', keys);
    return () => document.removeEventListener('keydown', keys);
  }, [controls]);

  const swipeFrom = useRef<number | null>(null);
  const swipe = {
    onTouchStart: (event: React.TouchEvent) => (swipeFrom.current = event.touches[0]?.clientX ?? null),
    onTouchEnd: (event: React.TouchEvent) => {
      const from = swipeFrom.current;
      const to = event.changedTouches[0]?.clientX;
      swipeFrom.current = null;
      if (format !== 'pdf' || settings.flow !== 'paginated' || from === null || to === undefined || Math.abs(to - from) < SWIPE_PX) return;
      if (to < from) controls?.next();
      else controls?.prev();
    },
  };

  const path = `/api/books/${encodeURIComponent(id)}/file/${encodeURIComponent(format)}`;
  const title = book.data?.title ?? 'Book';
  const failure = error ?? (book.error ?? position.error)?.message ?? null;
  const readable = READABLE_FORMATS.includes(format) && (book.data?.files ?? []).some((file) => file.format === format);
  const ready = position.isSuccess && book.isSuccess && !mustReload;
  const start = position.data ? { percentage: position.data.percentage, locator: position.data.locator } : null;
  const View = format === 'pdf' ? PdfView : EpubView;
  const fontIndex = FONT_SIZES.indexOf(settings.fontSize);

  return (
    <section id="reader" className={`reader reader-theme-${settings.theme}`} data-locator={location?.locator ?? ''} data-percentage={location?.percentage ?? ''}>
      <header className="reader-bar" aria-label="Reader">
        <Link className="btn btn-sm btn-outline-secondary" to={`/book/${encodeURIComponent(id)}`} aria-label="Back to the book">
          ←
        </Link>
        <h1 className="reader-title h6 mb-0 text-truncate">{title}</h1>
        <button type="button" className="btn btn-sm btn-outline-secondary" onClick={() => setShowToc(true)} disabled={toc.length === 0}>
          Contents
        </button>
        <div className="btn-group btn-group-sm" role="group" aria-label="Font size">
          <button type="button" className="btn btn-outline-secondary" aria-label="Smaller text" disabled={fontIndex <= 0} onClick={() => change({ fontSize: FONT_SIZES[fontIndex - 1] })}>
            A−
          </button>
          <button type="button" className="btn btn-outline-secondary" aria-label="Larger text" disabled={fontIndex >= FONT_SIZES.length - 1} onClick={() => change({ fontSize: FONT_SIZES[fontIndex + 1] })}>
            A+
          </button>
        </div>
        <select className="form-select form-select-sm reader-select" aria-label="Theme" value={settings.theme} onChange={(event) => change({ theme: event.target.value as ReaderTheme })}>
          <option value="light">Light</option>
          <option value="sepia">Sepia</option>
          <option value="dark">Dark</option>
        </select>
        <select className="form-select form-select-sm reader-select" aria-label="Layout" value={settings.flow} onChange={(event) => change({ flow: event.target.value === 'scrolled' ? 'scrolled' : 'paginated' })}>
          <option value="paginated">Pages</option>
          <option value="scrolled">Scroll</option>
        </select>
      </header>
      <div className="reader-main" {...swipe}>
        {failure !== null && <Alert variant="danger" className="m-3">{failure}</Alert>}
        {failure === null && ready && !readable && <Alert variant="warning" className="m-3">{`This book has no ${format.toUpperCase()} file to read.`}</Alert>}
        {failure === null && ready && readable && <View path={path} format={format} settings={settings} start={start} onReady={onReady} onRelocate={onRelocate} onError={setError} />}
        {failure === null && (!ready || controls === null) && <LoadingSpinner />}
      </div>
      <footer className="reader-foot">
        <button type="button" className="btn btn-sm btn-outline-secondary" aria-label="Previous page" disabled={controls === null} onClick={() => controls?.prev()}>
          ‹
        </button>
        <span className="reader-where text-truncate" aria-live="polite">
          {location !== null && `${Math.round(location.percentage * 100)} %${location.label ? ` · ${location.label}` : ''}`}
        </span>
        <button type="button" className="btn btn-sm btn-outline-secondary" aria-label="Next page" disabled={controls === null} onClick={() => controls?.next()}>
          ›
        </button>
      </footer>
      <Offcanvas show={showToc} onHide={() => setShowToc(false)} placement="start" aria-labelledby="reader-toc-title">
        <Offcanvas.Header closeButton>
          <Offcanvas.Title id="reader-toc-title">Contents</Offcanvas.Title>
        </Offcanvas.Header>
        <Offcanvas.Body>
          <nav aria-label="Table of contents">
            <ul className="list-unstyled reader-toc">
              {toc.map((entry, index) => (
                <li key={index} className={`reader-toc-depth-${Math.min(entry.depth, 3)}`}>
                  <button
                    type="button"
                    className="btn btn-link text-start p-1"
                    onClick={() => {
                      controls?.goTo(entry.target);
                      setShowToc(false);
                    }}
                  >
                    {entry.label}
                  </button>
                </li>
              ))}
            </ul>
          </nav>
        </Offcanvas.Body>
      </Offcanvas>
    </section>
  );
}
