/** What the reader's toolbar asks of a book's view, whatever its format. */
export interface ReaderControls {
  next(): void;
  prev(): void;
  /** A table of contents entry's target. */
  goTo(target: string): void;
}

export interface TocEntry {
  label: string;
  target: string;
  depth: number;
}

/** Where the view is: what the server keeps (percentage, locator) and what the reader shows. */
export interface ReaderLocation {
  percentage: number;
  /** An EPUB CFI, or a PDF page number from 1: the contract's `locator`. */
  locator: string;
  /** "Page 3 of 20", or the chapter. */
  label: string;
}

export type ReaderTheme = 'light' | 'dark' | 'sepia';
export type ReaderFlow = 'paginated' | 'scrolled';

export interface ReaderSettings {
  theme: ReaderTheme;
  flow: ReaderFlow;
  /** Per cent of the book's own size (EPUB), or of the page's width (PDF). */
  fontSize: number;
}

export interface BookViewProps {
  /** The file's URL on the API: `/api/books/{id}/file/{format}`. */
  path: string;
  format: string;
  settings: ReaderSettings;
  /** Where to open: the saved position, null at the start. */
  start: { percentage: number; locator: string | null } | null;
  onReady(controls: ReaderControls, toc: TocEntry[]): void;
  onRelocate(location: ReaderLocation): void;
  onError(message: string): void;
}

export const THEME_COLOURS: Record<ReaderTheme, { background: string; text: string; link: string }> = {
  light: { background: '#ffffff', text: '#1a1a1a', link: '#0b5ed7' },
  dark: { background: '#1c1c1e', text: '#e0e0e0', link: '#8ab4f8' },
  sepia: { background: '#f4ecd8', text: '#5b4636', link: '#7b4a12' },
};
