import { useEffect, useLayoutEffect, useRef } from 'react';
import type { FoliateBook, FoliateLocation, FoliateTocItem } from 'foliate-js/view.js';
import { runChange, useApiDispatch, type ApiDispatch } from '../../api/api.ts';
import { errorMessage } from '../../api/api-error.ts';
import { readerApi } from './reader.api.ts';
import { THEME_COLOURS, type BookViewProps, type ReaderSettings, type TocEntry } from './reader-types.ts';
import { guardBookSections } from './section-guard.ts';

const MIME_TYPES: Record<string, string> = { epub: 'application/epub+zip', cbz: 'application/vnd.comicbook+zip' };

/** The element foliate-js defines: the book's sections in iframes, paged or scrolled. */
interface FoliateView extends HTMLElement {
  book: FoliateBook;
  /** The paginator (reflowable books) has styles; the fixed layout (comics) has none. */
  renderer: HTMLElement & { setStyles?(css: string): void };
  open(book: FoliateBook): Promise<void>;
  init(options: { lastLocation?: string | null; showTextStart?: boolean }): Promise<void>;
  goTo(target: string): Promise<unknown>;
  goToFraction(fraction: number): Promise<void>;
  goLeft(): Promise<void>;
  goRight(): Promise<void>;
  close(): void;
}

function bookStyles({ theme, fontSize }: ReaderSettings): string {
  const colours = THEME_COLOURS[theme];
  return `
    html { color-scheme: ${theme === 'dark' ? 'dark' : 'light'}; font-size: ${fontSize}% !important; }
    html, body { background: ${colours.background} !important; color: ${colours.text} !important; }
    a, a:link, a:visited { color: ${colours.link} !important; }
    img, svg { max-width: 100%; }
  `;
}

function flattenToc(items: readonly FoliateTocItem[] | undefined, depth = 0): TocEntry[] {
  return (items ?? []).flatMap((item) => [{ label: item.label.trim(), target: item.href, depth }, ...flattenToc(item.subitems, depth + 1)]);
}

/** An EPUB (or a comic book archive) through foliate-js, from the file read whole through the API. */
export function EpubView({ path, format, settings, start, onReady, onRelocate, onError }: BookViewProps) {
  const calls: ApiDispatch = useApiDispatch();
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<FoliateView | null>(null);
  const latest = useRef({ settings, onReady, onRelocate, onError });
  useLayoutEffect(() => {
    latest.current = { settings, onReady, onRelocate, onError };
  });
  // Read once: the view opens where the reader was when the page opened.
  const startAt = useRef(start);

  useEffect(() => {
    let closed = false;
    const element = host.current;
    const keys = (event: KeyboardEvent) => {
      if (event.key === 'ArrowLeft') void view.current?.goLeft();
      if (event.key === 'ArrowRight') void view.current?.goRight();
    };
    (async () => {
      const reading = runChange(calls, readerApi.endpoints.bookFile.initiate(path));
      const { makeBook } = await import('foliate-js/view.js');
      const blob = await reading;
      if (closed || element === null) return;
      const book = await makeBook(new File([blob], `book.${format}`, { type: MIME_TYPES[format] ?? blob.type }));
      guardBookSections(book.transformTarget);
      const opened = document.createElement('foliate-view') as FoliateView;
      opened.className = 'reader-foliate';
      element.replaceChildren(opened);
      opened.addEventListener('relocate', (event) => {
        const location = (event as CustomEvent<FoliateLocation>).detail;
        const percentage = Math.min(1, Math.max(0, location.fraction));
        latest.current.onRelocate({ percentage, locator: location.cfi, label: location.tocItem?.label?.trim() ?? '' });
      });
      // The keys reach the book's frame when it has the focus; the page's own handler hears the rest.
      opened.addEventListener('load', (event) => (event as CustomEvent<{ doc: Document }>).detail.doc.addEventListener('keydown', keys));
      opened.addEventListener('external-link', (event) => event.preventDefault());
      await opened.open(book);
      if (closed) return opened.close();
      view.current = opened;
      applySettings(opened, latest.current.settings);
      const at = startAt.current;
      if (at?.locator) await opened.init({ lastLocation: at.locator });
      else if (at) await opened.goToFraction(at.percentage);
      else await opened.init({ showTextStart: false });
      latest.current.onReady(
        { next: () => void opened.goRight(), prev: () => void opened.goLeft(), goTo: (target) => void opened.goTo(target) },
        flattenToc(book.toc),
      );
    })().catch((error: unknown) => closed || latest.current.onError(errorMessage(error)));
    return () => {
      closed = true;
      view.current?.close();
      view.current = null;
    };
  }, [calls, path, format]);

  useEffect(() => {
    if (view.current) applySettings(view.current, settings);
  }, [settings]);

  return <div ref={host} className="reader-book" data-format={format} />;
}

function applySettings(view: FoliateView, settings: ReaderSettings) {
  view.renderer.setAttribute('flow', settings.flow);
  view.renderer.setAttribute('max-inline-size', '720px');
  view.renderer.setAttribute('gap', '5%');
  view.renderer.setStyles?.(bookStyles(settings));
}
