import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/**
 * Security headers and a Content Security Policy on every reply. The client is built with no
 * inline script or style, so 'self' is enough; profile photos may come from an identity provider.
 * Book covers are fetched with the bearer token and shown from `blob:` URLs (features/books/book-cover.tsx).
 *
 * helmet is built and run once here, and the headers it sets are set on every reply as they are:
 * none depends on the request (no nonces). @fastify/helmet built it again for every request,
 * parsing the policy each time, and helmet run for each reply joins the policy again: both
 * showed in the main thread's profile under a load of book searches.
 */
const APP_DIRECTIVES = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:', 'blob:', 'https:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  // The web app manifest that makes the app installable on a phone's home screen.
  'manifest-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

/**
 * The reader's page (`/book/{id}/read/{format}`, loaded as a page: the client's "Read" link reloads)
 * shows an EPUB's documents in frames that foliate-js makes from `blob:` URLs, and each frame
 * inherits this policy: frames from `blob:`, and the book's own style sheets (`blob:`) and inline
 * styles. Scripts stay the app's own files; each book document adds a policy of its own that
 * allows no script and nothing from the network (web/src/features/reader/section-guard.ts).
 */
const READER_DIRECTIVES = {
  ...APP_DIRECTIVES,
  'style-src': ["'self'", 'blob:', "'unsafe-inline'"],
  'font-src': ["'self'", 'data:', 'blob:'],
  'frame-src': ['blob:'],
};

const READER_PAGE = /^\/book\/[^/?#]+\/read\/[^/?#]+\/?(?:[?#]|$)/;

/**
 * The create form as the bookmarklet opens it, in a popup of the page it was pressed on, asks
 * that page for its HTML (bookmark-capture.ts): its opener must stay its opener, which a
 * `same-origin-allow-popups` opened from another site would cut. Only this page load gets
 * `unsafe-none`; the page's policy is the app's.
 */
const CAPTURE_PAGE = /^\/bookmark\/create\?(?:[^#]*&)?capture=1(?:[&#]|$)/;

function headersFor(directives: Record<string, string[]>, opener: 'same-origin-allow-popups' | 'unsafe-none' = 'same-origin-allow-popups'): Array<[string, string]> {
  const setHeaders = helmet({
    contentSecurityPolicy: { useDefaults: false, directives },
    // The sign-in popup of a later issue posts back to its opener, which needs the opener kept.
    crossOriginOpenerPolicy: { policy: opener },
    strictTransportSecurity: false,
  });
  const headers: Array<[string, string]> = [];
  const recorder = { setHeader: (name: string, value: string) => headers.push([name, value]), removeHeader: () => {} };
  setHeaders({} as IncomingMessage, recorder as unknown as ServerResponse, (error) => {
    if (error) throw error;
  });
  if (!headers.some(([name]) => name.toLowerCase() === 'content-security-policy')) throw new Error('helmet set no Content Security Policy');
  return headers;
}

export function registerSecurityHeaders(app: FastifyInstance) {
  const appHeaders = headersFor(APP_DIRECTIVES);
  const readerHeaders = headersFor(READER_DIRECTIVES);
  const captureHeaders = headersFor(APP_DIRECTIVES, 'unsafe-none');
  const headersOf = (url: string) => (READER_PAGE.test(url) ? readerHeaders : CAPTURE_PAGE.test(url) ? captureHeaders : appHeaders);
  app.addHook('onRequest', (request, reply, done) => {
    for (const [name, value] of headersOf(request.url)) reply.raw.setHeader(name, value);
    done();
  });
}
