import http, { STATUS_CODES } from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { AppError } from '../../errors.ts';
import { guardedLookup, NonPublicAddressError } from './guarded-lookup.ts';

/** The numbers of each caller are in docs/behaviour/bookmarks.md; tests shorten them. */
export type FetchLimits = { timeoutMs: number; maxBytes: number; maxRedirects: number };

/** What a caller takes: which media types, named how in a refusal, and what to do with a body over the size limit. */
export type FetchWanted = {
  types: ReadonlySet<string>;
  /** "HTML", "an image": the refusal of another type says the page is not this. */
  named: string;
  accept: string;
  /** `head`: read the first `maxBytes` (a preview needs only the head); `refuse`: a larger body is refused. */
  overLimit: 'head' | 'refuse';
};

export type FetchedBody = { url: string; mediaType: string; charset: string | undefined; body: Uint8Array };

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Every refusal is the caller's link, told in words: a 422, never a 5xx. */
export const refused = (why: string) => new AppError(422, `link: ${why}`);
const notPublic = () => refused('the page is on a private or local address, which the server does not visit');
const megabytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

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
 * The server's fetch of a page (or an image of it), made safe to run for anyone on an
 * internet-facing server: http(s) only; public addresses only, checked on the address the lookup
 * hands to the connection (and again on the connected socket) at every hop, so neither DNS
 * rebinding nor a redirect reaches the server's own network; redirects followed by hand, each
 * checked again; one time limit for everything; the media types the caller takes; a size cap.
 * `mayVisit` says which addresses are public: `isPublicAddress`, or every address with the
 * PREVIEW_ALLOW_PRIVATE setting (tests, and servers that only a home network reaches).
 */
export function createGuardedFetch({ mayVisit, limits, userAgent }: { mayVisit: (address: string) => boolean; limits: FetchLimits; userAgent: string }) {
  const lookup = guardedLookup(mayVisit);

  function get(url: URL, accept: string, signal: AbortSignal): Promise<http.IncomingMessage> {
    const client = url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const request = client.get(url, { lookup, signal, agent: false, headers: { 'user-agent': userAgent, accept, 'accept-encoding': 'identity' } });
      request.on('error', reject);
      request.on('response', (response) => {
        if (!mayVisit(response.socket.remoteAddress ?? '')) {
          response.destroy();
          reject(notPublic());
        } else resolve(response);
      });
    });
  }

  async function readBody(response: http.IncomingMessage, overLimit: FetchWanted['overLimit']): Promise<Uint8Array> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response as AsyncIterable<Buffer>) {
      const room = limits.maxBytes - size;
      if (chunk.length > room && overLimit === 'refuse') {
        response.destroy();
        throw refused(`the page is larger than ${megabytes(limits.maxBytes)}`);
      }
      chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
      size += Math.min(chunk.length, room);
      if (size >= limits.maxBytes) break;
    }
    response.destroy();
    return Buffer.concat(chunks);
  }

  async function readResponse(response: http.IncomingMessage, url: URL, wanted: FetchWanted): Promise<FetchedBody> {
    const status = response.statusCode ?? 0;
    if (status < 200 || status > 299) throw refused(`the page answered ${status} ${STATUS_CODES[status] ?? ''}`.trimEnd());
    const [type = '', ...parameters] = (response.headers['content-type'] ?? '').split(';');
    const mediaType = type.trim().toLowerCase();
    if (!wanted.types.has(mediaType)) throw refused(`the page is not ${wanted.named} (it is ${mediaType || 'of no stated type'})`);
    const declaredLength = Number(response.headers['content-length']);
    if (declaredLength > limits.maxBytes) throw refused(`the page is larger than ${megabytes(limits.maxBytes)}`);
    const charset = parameters.map((part) => part.trim().match(/^charset\s*=\s*"?([^";]+)"?$/i)?.[1]).find(Boolean);
    return { url: url.href, mediaType, charset, body: await readBody(response, wanted.overLimit) };
  }

  return {
    /** The body at the link (after its redirects); a 422 saying why when it cannot be read. `stop` ends it early. */
    async fetch(link: string, wanted: FetchWanted, stop?: AbortSignal): Promise<FetchedBody> {
      let url = checkedUrl(link, mayVisit);
      const controller = new AbortController();
      if (stop?.aborted) controller.abort();
      else stop?.addEventListener('abort', () => controller.abort(), { once: true });
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, limits.timeoutMs);
      try {
        for (let redirects = 0; ; redirects++) {
          const response = await get(url, wanted.accept, controller.signal);
          const location = response.headers.location;
          if (!REDIRECTS.has(response.statusCode ?? 0) || !location) return await readResponse(response, url, wanted);
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
export type GuardedFetch = ReturnType<typeof createGuardedFetch>;
