import type { StoredPosition } from './positions.store.ts';

/**
 * Formats KOReader shows by pages: its progress there is the page number from 1, as the web
 * reader's PDF locator is. Elsewhere (EPUB and the other reflowed formats) it is an XPointer into
 * the document's text, `/body/DocFragment[20]/body/p[22]/text().0`, which nothing else reads.
 */
const PAGED_FORMATS = new Set(['pdf', 'cbz', 'cbr', 'cb7', 'cbt', 'djvu', 'djv', 'xps', 'oxps']);

const PAGE = /^[1-9]\d{0,8}$/;
/** An EPUB CFI's first steps: the package's spine (always /6) and the item in it (even, from 2). */
const CFI_SPINE_ITEM = /^epubcfi\(\/6\/(\d+)/;

/** The web reader's locator for a place KOReader sent: the page of a paged format; null otherwise (the percentage tells the place). */
export function webLocatorOf(koreaderProgress: string, format: string | null): string | null {
  return format !== null && PAGED_FORMATS.has(format) && PAGE.test(koreaderProgress) ? koreaderProgress : null;
}

/**
 * KOReader's progress for a position in a file of `format`: KOReader's own when KOReader saved it
 * (from another device or the other kind of document id), else the web reader's place in
 * KOReader's terms: a PDF page as it is, an EPUB CFI as the start of its spine item, which KOReader
 * numbers from 1 as `DocFragment`s. Null when neither fits the format: KOReader then gets its own
 * document's progress rather than a place it cannot go to.
 */
export function koreaderProgressOf(position: Pick<StoredPosition, 'locator' | 'koreaderProgress'>, format: string): string | null {
  const paged = PAGED_FORMATS.has(format);
  if (position.koreaderProgress !== null) {
    const fits = paged ? PAGE.test(position.koreaderProgress) : position.koreaderProgress.startsWith('/');
    return fits ? position.koreaderProgress : null;
  }
  const locator = position.locator ?? '';
  if (paged) return PAGE.test(locator) ? locator : null;
  const spineStep = Number(CFI_SPINE_ITEM.exec(locator)?.[1] ?? 0);
  return spineStep >= 2 && spineStep % 2 === 0 ? `/body/DocFragment[${spineStep / 2}]/body` : null;
}
