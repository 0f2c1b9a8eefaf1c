import pLimit from 'p-limit';
import { createGuardedFetch, type FetchLimits, type FetchWanted } from '../preview/guarded-fetch.ts';
import { pageText } from '../preview/page-meta.ts';
import { IMAGE_TYPES } from './image-types.ts';
import { readableArticle } from './readable-article.ts';

/**
 * The caps of a kept copy (docs/behaviour/bookmarks.md, "Kept copies"): larger than the preview's
 * 1 MB and 5 s, since the whole page is read, not its head, and a news page is often 1–3 MB of
 * HTML; images up to 2 MB each, 40 of them and 10 MB in all, past which the rest are left out.
 */
export type ArchiveLimits = { page: FetchLimits; image: FetchLimits; maxImages: number; imagesBytes: number };
export const ARCHIVE_LIMITS: ArchiveLimits = {
  page: { timeoutMs: 20_000, maxBytes: 5 * 1024 * 1024, maxRedirects: 5 },
  image: { timeoutMs: 10_000, maxBytes: 2 * 1024 * 1024, maxRedirects: 5 },
  maxImages: 40,
  imagesBytes: 10 * 1024 * 1024,
};
/** Images fetched at once for one page. */
const IMAGE_FETCHES = 4;

const WHOLE_HTML: FetchWanted = {
  types: new Set(['text/html', 'application/xhtml+xml']),
  named: 'HTML',
  accept: 'text/html,application/xhtml+xml',
  overLimit: 'refuse',
};
const IMAGE: FetchWanted = { types: IMAGE_TYPES, named: 'an image', accept: [...IMAGE_TYPES].join(','), overLimit: 'refuse' };

export type KeptArticle = { title: string; byline: string; siteName: string; html: string; text: string; words: number; images: number };

/**
 * Reads a page into the copy that is kept of it: fetched by the server through the preview's
 * guard with the caps above, or sent by the browser; either way its article extracted,
 * sanitised, and its images fetched through the same guard and written in.
 */
export function createPageArchiver({ mayVisit, limits = ARCHIVE_LIMITS }: { mayVisit: (address: string) => boolean; limits?: ArchiveLimits }) {
  const pages = createGuardedFetch({ mayVisit, limits: limits.page, userAgent: 'Organiser page keeper' });
  const imageFetch = createGuardedFetch({ mayVisit, limits: limits.image, userAgent: 'Organiser page keeper' });

  /** Each image's data: URL by its address; those that fail, or come past the caps, are not in it. */
  async function fetchImages(urls: string[], stop: AbortSignal | undefined): Promise<Map<string, string>> {
    const limit = pLimit(IMAGE_FETCHES);
    const images = new Map<string, string>();
    let bytes = 0;
    await Promise.all(
      urls.slice(0, limits.maxImages).map((url) =>
        limit(async () => {
          if (bytes >= limits.imagesBytes) return;
          const image = await imageFetch.fetch(url, IMAGE, stop).catch(() => null);
          if (!image || bytes + image.body.length > limits.imagesBytes) return;
          bytes += image.body.length;
          images.set(url, `data:${image.mediaType};base64,${Buffer.from(image.body).toString('base64')}`);
        }),
      ),
    );
    return images;
  }

  async function keep(page: string, url: string, stop?: AbortSignal): Promise<KeptArticle> {
    // sanitize-html (with postcss) is loaded at the first page kept, as Readability is.
    const { articleText, sanitisedArticle, withImages } = await import('./article-html.ts');
    const article = await readableArticle(page);
    const clean = sanitisedArticle(article.html, url);
    const { html, images } = withImages(clean.html, await fetchImages(clean.imageUrls, stop), limits.image.maxBytes);
    const text = articleText(html);
    const words = text.split(/\s+/).filter(Boolean).length;
    return { title: article.title, byline: article.byline, siteName: article.siteName, html, text, words, images };
  }

  return {
    /** The page at the link, fetched now; a 422 saying why when it cannot be. `stop` ends its fetches early. */
    async fetchPage(link: string, stop?: AbortSignal): Promise<KeptArticle> {
      const page = await pages.fetch(link, WHOLE_HTML, stop);
      return keep(pageText(page.body, page.charset), page.url, stop);
    },
    /** A page the browser sent (a SingleFile capture, or the bookmarklet's), read as if at the bookmark's link. */
    fromCapture(bytes: Uint8Array, link: string): Promise<KeptArticle> {
      return keep(pageText(bytes, undefined), link);
    },
  };
}
export type PageArchiver = ReturnType<typeof createPageArchiver>;
