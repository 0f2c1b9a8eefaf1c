import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { runChange, useApiDispatch, type ApiDispatch } from '../../api/api.ts';
import { errorMessage } from '../../api/api-error.ts';
import { readerApi, type FileRange } from './reader.api.ts';
import type { BookViewProps, TocEntry } from './reader-types.ts';

/** The first read and each range PDF.js asks for: a 50 MB PDF shows its first page after a few of these, not the whole file. */
const CHUNK = 65_536;

async function loadPdfJs() {
  const [pdfjs, worker] = await Promise.all([import('pdfjs-dist'), import('pdfjs-dist/build/pdf.worker.min.mjs?url')]);
  // The worker is one of the build's own files: the CSP's 'self' lets it run.
  pdfjs.GlobalWorkerOptions.workerSrc = worker.default;
  return pdfjs;
}

function readRange(calls: ApiDispatch, path: string, begin: number, end: number): Promise<FileRange> {
  return runChange(calls, readerApi.endpoints.fileRange.initiate({ path, begin, end }));
}

type Outline = Awaited<ReturnType<PDFDocumentProxy['getOutline']>>;

async function tableOfContents(pdf: PDFDocumentProxy): Promise<TocEntry[]> {
  const entries: TocEntry[] = [];
  async function walk(items: Outline | null, depth: number) {
    for (const item of items ?? []) {
      const destination = typeof item.dest === 'string' ? await pdf.getDestination(item.dest) : item.dest;
      const reference = destination?.[0];
      const page = reference && typeof reference === 'object' ? (await pdf.getPageIndex(reference)) + 1 : typeof reference === 'number' ? reference + 1 : null;
      if (page !== null) entries.push({ label: item.title, target: String(page), depth });
      await walk(item.items as Outline, depth + 1);
    }
  }
  await walk(await pdf.getOutline().catch(() => null), 0);
  return entries;
}

/**
 * A PDF through PDF.js (pdfjs-dist), its bytes read by ranges through the API as pages are shown.
 * Paginated: one page fitted to the screen; scrolled: every page in a column, each drawn as it
 * comes into view. The font size zooms the page.
 */
export function PdfView({ path, settings, start, onReady, onRelocate, onError }: BookViewProps) {
  const calls: ApiDispatch = useApiDispatch();
  const [pdf, setPdf] = useState<PDFDocumentProxy | null>(null);
  const [page, setPage] = useState(() => Math.max(1, Number(start?.locator) || 1));
  const latest = useRef({ onReady, onRelocate, onError });
  useLayoutEffect(() => {
    latest.current = { onReady, onRelocate, onError };
  });
  const startAt = useRef(start);

  useEffect(() => {
    let closed = false;
    let opened: PDFDocumentProxy | null = null;
    let loading: { destroy(): Promise<void> } | null = null;
    (async () => {
      const pdfjs = await loadPdfJs();
      const first = await readRange(calls, path, 0, CHUNK);
      class ApiRangeTransport extends pdfjs.PDFDataRangeTransport {
        override requestDataRange(begin: number, end: number) {
          readRange(calls, path, begin, end).then(
            ({ bytes }) => this.onDataRange(begin, bytes),
            (error: unknown) => closed || latest.current.onError(errorMessage(error)),
          );
        }
      }
      const whole = first.bytes.length >= first.length;
      const transport = new ApiRangeTransport(first.length, first.bytes, whole);
      // No WebAssembly decoders: they would need 'wasm-unsafe-eval' in the CSP; PDF.js decodes in JavaScript instead.
      const task = pdfjs.getDocument({ range: transport, rangeChunkSize: CHUNK, disableAutoFetch: true, disableStream: true, useWasm: false });
      loading = task;
      opened = await task.promise;
      if (closed) return void task.destroy();
      const at = startAt.current;
      if (at && !at.locator) setPage(Math.min(opened.numPages, Math.max(1, Math.round(at.percentage * opened.numPages) || 1)));
      setPdf(opened);
      latest.current.onReady(
        {
          next: () => setPage((current) => Math.min(opened?.numPages ?? current, current + 1)),
          prev: () => setPage((current) => Math.max(1, current - 1)),
          goTo: (target) => setPage(Math.min(opened?.numPages ?? 1, Math.max(1, Number(target) || 1))),
        },
        await tableOfContents(opened),
      );
    })().catch((error: unknown) => closed || latest.current.onError(errorMessage(error)));
    return () => {
      closed = true;
      void loading?.destroy();
    };
  }, [calls, path]);

  useEffect(() => {
    if (pdf === null) return;
    const shown = Math.min(page, pdf.numPages);
    latest.current.onRelocate({
      percentage: pdf.numPages <= 1 ? 1 : (shown - 1) / (pdf.numPages - 1),
      locator: String(shown),
      label: `Page ${shown} of ${pdf.numPages}`,
    });
  }, [pdf, page]);

  if (pdf === null) return <div className="reader-book" data-format="pdf" />;
  const filter = settings.theme === 'dark' ? 'invert(0.9) hue-rotate(180deg)' : settings.theme === 'sepia' ? 'sepia(0.35)' : 'none';
  return (
    <div className={`reader-book reader-pdf reader-pdf-${settings.flow}`} data-format="pdf" style={{ filter }}>
      {settings.flow === 'paginated' ? (
        <PdfPage pdf={pdf} number={page} zoom={settings.fontSize / 100} fit="page" />
      ) : (
        <PdfColumn pdf={pdf} page={page} zoom={settings.fontSize / 100} onPageInView={setPage} />
      )}
    </div>
  );
}

/** Every page in a column; the one mostly in view is the page the reader is at. */
function PdfColumn({ pdf, page, zoom, onPageInView }: { pdf: PDFDocumentProxy; page: number; zoom: number; onPageInView(page: number): void }) {
  const column = useRef<HTMLDivElement>(null);
  const shownPage = useRef(page);
  useEffect(() => {
    // A page chosen from outside (the contents, the keys) is scrolled to; one scrolled to is only noted.
    if (shownPage.current === page && column.current?.dataset.placed) return;
    column.current?.querySelector(`[data-page="${page}"]`)?.scrollIntoView({ block: 'start' });
    if (column.current) column.current.dataset.placed = 'yes';
    shownPage.current = page;
  }, [page]);
  useEffect(() => {
    const observer = new IntersectionObserver(
      (entries) => {
        const seen = entries.filter((entry) => entry.isIntersecting && entry.intersectionRatio >= 0.5);
        const number = Number((seen[0]?.target as HTMLElement | undefined)?.dataset.page);
        if (number) {
          shownPage.current = number;
          onPageInView(number);
        }
      },
      { threshold: 0.5 },
    );
    for (const element of column.current?.querySelectorAll('[data-page]') ?? []) observer.observe(element);
    return () => observer.disconnect();
  }, [pdf, onPageInView]);
  return (
    <div ref={column} className="reader-pdf-column">
      {Array.from({ length: pdf.numPages }, (_, index) => (
        <PdfPage key={index} pdf={pdf} number={index + 1} zoom={zoom} fit="width" lazy />
      ))}
    </div>
  );
}

interface PdfPageProps {
  pdf: PDFDocumentProxy;
  number: number;
  zoom: number;
  /** "page": the whole page on the screen; "width": the column's width. */
  fit: 'page' | 'width';
  /** Drawn once it comes near the view. */
  lazy?: boolean;
}

function PdfPage({ pdf, number, zoom, fit, lazy = false }: PdfPageProps) {
  const box = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [near, setNear] = useState(!lazy);

  useEffect(() => {
    if (near || box.current === null) return;
    const observer = new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && setNear(true), { rootMargin: '100% 0px' });
    observer.observe(box.current);
    return () => observer.disconnect();
  }, [near]);

  useEffect(() => {
    if (!near || canvas.current === null || box.current === null) return;
    let task: { cancel(): void; promise: Promise<void> } | null = null;
    let cancelled = false;
    const target = canvas.current;
    const holder = box.current;
    void pdf.getPage(number).then((proxy) => {
      if (cancelled) return;
      const natural = proxy.getViewport({ scale: 1 });
      const width = holder.clientWidth || window.innerWidth;
      const height = holder.parentElement?.clientHeight || window.innerHeight;
      const fitted = fit === 'page' ? Math.min(width / natural.width, height / natural.height) : width / natural.width;
      const viewport = proxy.getViewport({ scale: fitted * zoom });
      const ratio = window.devicePixelRatio || 1;
      target.width = Math.floor(viewport.width * ratio);
      target.height = Math.floor(viewport.height * ratio);
      target.style.width = `${Math.floor(viewport.width)}px`;
      target.style.height = `${Math.floor(viewport.height)}px`;
      task = proxy.render({ canvas: target, viewport, transform: ratio === 1 ? undefined : [ratio, 0, 0, ratio, 0, 0] });
      task.promise.then(
        () => (target.dataset.rendered = String(number)),
        () => undefined,
      );
    });
    return () => {
      cancelled = true;
      task?.cancel();
    };
  }, [pdf, number, zoom, fit, near]);

  return (
    <div ref={box} className="reader-pdf-page" data-page={number}>
      <canvas ref={canvas} aria-label={`Page ${number}`} role="img" />
    </div>
  );
}
