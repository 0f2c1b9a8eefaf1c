import http, { STATUS_CODES } from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { AppError } from '../../errors.ts';
import { guardedLookup, NonPublicAddressError } from './guarded-lookup.ts';
import { type PageMeta, pageText, readPageMeta } from './page-meta.ts';
import { isPublicAddress } from './public-address.ts';

/** The numbers are in docs/behaviour/bookmarks.md ("Saving from anywhere"); tests shorten them. */
export type PreviewLimits = { timeoutMs: number; maxBytes: number; maxRedirects: number };
export const PREVIEW_LIMITS: PreviewLimits = { timeoutMs: 5000, maxBytes: 1024 * 1024, maxRedirects: 3 };

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

/** Every refusal is the caller's link, told in words: a 422, never a 5xx. */
const refused = (why: string) => new AppError(422, `link: ${why}`);
const notPublic = () => refused('the page is on a private or local address, which the server does not visit');

function checkedUrl(link: string, mayVisit: (address: string) => boolean): URL {
  if (!URL.canParse(link)) throw refused('must be an http or https URL');
  const url = new URL(link);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refused('only http and https pages can be read');
  // An address written in the link is connected to without a lookup, so it is checked here.
  const literal = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(literal) !== 0 && !mayVisit(literal)) throw notPublic();
  return url;
}

function networkRefusal(error: unknown, url: URL, timedOutAfterMs: number | null): AppError {
  if (error instanceof AppError) return error;
  if (timedOutAfterMs !== null) return refused(`the page did not answer within ${timedOutAfterMs / 1000} seconds`);
  if (error instanceof NonPublicAddressError) return notPublic();
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return refused(`the host ${url.hostname} could not be found`);
  return refused(`the page could not be reached${code ? ` (${code})` : ''}`);
}

/**
 * The server's fetch of a page whose title and description a new bookmark takes, made safe to
 * run for anyone on an internet-facing server: http(s) only; public addresses only, checked on
 * the address the lookup hands to the connection (and again on the connected socket) at every
 * hop, so neither DNS rebinding nor a redirect reaches the server's own network; redirects
 * followed by hand, at most 3; 5 seconds for everything; HTML only; at most 1 MB read.
 * `mayVisit` says which addresses are public: `isPublicAddress`, or every address with the
 * PREVIEW_ALLOW_PRIVATE setting (tests, and servers that only a home network reaches).
 */
export function createPagePreview({ mayVisit = isPublicAddress, limits = PREVIEW_LIMITS }: { mayVisit?: (address: string) => boolean; limits?: PreviewLimits }) {
  const lookup = guardedLookup(mayVisit);

  function get(url: URL, signal: AbortSignal): Promise<http.IncomingMessage> {
    const client = url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const request = client.get(url, {
        lookup,
        signal,
        agent: false,
        headers: { 'user-agent': 'Organiser link preview', accept: 'text/html,application/xhtml+xml', 'accept-encoding': 'identity' },
      });
      request.on('error', reject);
      request.on('response', (response) => {
        if (!mayVisit(response.socket.remoteAddress ?? '')) {
          response.destroy();
          reject(notPublic());
        } else resolve(response);
      });
    });
  }

  async function readBody(response: http.IncomingMessage): Promise<Uint8Array> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response as AsyncIterable<Buffer>) {
      const room = limits.maxBytes - size;
      chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
      size += Math.min(chunk.length, room);
      // The head, where the title is, comes first: the rest of a long page is not read.
      if (size >= limits.maxBytes) break;
    }
    response.destroy();
    return Buffer.concat(chunks);
  }

  async function readPage(response: http.IncomingMessage): Promise<PageMeta> {
    const status = response.statusCode ?? 0;
    if (status < 200 || status > 299) throw refused(`the page answered ${status} ${STATUS_CODES[status] ?? ''}`.trimEnd());
    const [type = '', ...parameters] = (response.headers['content-type'] ?? '').split(';');
    const mediaType = type.trim().toLowerCase();
    if (!HTML_TYPES.has(mediaType)) throw refused(`the page is not HTML (it is ${mediaType || 'of no stated type'})`);
    const declaredLength = Number(response.headers['content-length']);
    if (declaredLength > limits.maxBytes) throw refused(`the page is larger than ${limits.maxBytes / 1024 / 1024} MB`);
    const charset = parameters.map((part) => part.trim().match(/^charset\s*=\s*"?([^";]+)"?$/i)?.[1]).find(Boolean);
    return readPageMeta(pageText(await readBody(response), charset));
  }

  return {
    /** The page's title and description; a 422 saying why when the page cannot be read. */
    async preview(link: string): Promise<PageMeta> {
      let url = checkedUrl(link, mayVisit);
      const controller = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, limits.timeoutMs);
      try {
        for (let redirects = 0; ; redirects++) {
          const response = await get(url, controller.signal);
          const location = response.headers.location;
          if (!REDIRECTS.has(response.statusCode ?? 0) || !location) return await readPage(response);
          response.destroy();
          if (redirects === limits.maxRedirects) throw refused(`the page redirects more than ${limits.maxRedirects} times`);
          if (!URL.canParse(location, url.href)) throw refused('the page redirects to an address that is not a URL');
          url = checkedUrl(new URL(location, url).href, mayVisit);
        }
      } catch (error) {
        throw networkRefusal(error, url, timedOut ? limits.timeoutMs : null);
      } finally {
        clearTimeout(timer);
        controller.abort();
      }
    },
  };
}
export type PagePreview = ReturnType<typeof createPagePreview>;
