import { createGuardedFetch, type FetchLimits, type FetchWanted } from './guarded-fetch.ts';
import { type PageMeta, pageText, readPageMeta } from './page-meta.ts';
import { isPublicAddress } from './public-address.ts';

/** The numbers are in docs/behaviour/bookmarks.md ("Saving from anywhere"); tests shorten them. */
export type PreviewLimits = FetchLimits;
export const PREVIEW_LIMITS: PreviewLimits = { timeoutMs: 5000, maxBytes: 1024 * 1024, maxRedirects: 3 };

/** The head, where the title is, comes first: the rest of a long page is not read. */
const HTML_HEAD: FetchWanted = {
  types: new Set(['text/html', 'application/xhtml+xml']),
  named: 'HTML',
  accept: 'text/html,application/xhtml+xml',
  overLimit: 'head',
};

/**
 * The server's fetch of a page whose title and description a new bookmark takes, through the
 * guarded fetch (guarded-fetch.ts): at most 3 redirects, 5 seconds for everything, HTML only, at
 * most 1 MB read.
 */
export function createPagePreview({ mayVisit = isPublicAddress, limits = PREVIEW_LIMITS }: { mayVisit?: (address: string) => boolean; limits?: PreviewLimits }) {
  const pages = createGuardedFetch({ mayVisit, limits, userAgent: 'Organiser link preview' });
  return {
    /** The page's title and description; a 422 saying why when the page cannot be read. */
    async preview(link: string): Promise<PageMeta> {
      const { body, charset } = await pages.fetch(link, HTML_HEAD);
      return readPageMeta(pageText(body, charset));
    },
  };
}
export type PagePreview = ReturnType<typeof createPagePreview>;
