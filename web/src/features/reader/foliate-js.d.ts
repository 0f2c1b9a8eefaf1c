// foliate-js ships plain ES modules without types: what the EPUB reader uses of it.
declare module 'foliate-js/view.js' {
  export interface FoliateTocItem {
    label: string;
    href: string;
    subitems?: FoliateTocItem[];
  }
  export interface FoliateBook {
    toc?: FoliateTocItem[];
    metadata?: { title?: unknown };
    transformTarget?: EventTarget;
  }
  export interface FoliateLocation {
    fraction: number;
    cfi: string;
    tocItem?: { label?: string };
  }
  export function makeBook(file: File): Promise<FoliateBook>;
}
