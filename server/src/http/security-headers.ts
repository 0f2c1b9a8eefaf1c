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
 * parsing the policy (6% of the main thread's time under a load of book searches), and helmet
 * run for each reply joins the policy again (4%).
 */
export function registerSecurityHeaders(app: FastifyInstance) {
  const setHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'"],
        'style-src': ["'self'"],
        'img-src': ["'self'", 'data:', 'blob:', 'https:'],
        'font-src': ["'self'", 'data:'],
        'connect-src': ["'self'"],
        'object-src': ["'none'"],
        'base-uri': ["'self'"],
        'form-action': ["'self'"],
        'frame-ancestors': ["'none'"],
      },
    },
    // The sign-in popup of a later issue posts back to its opener, which needs the opener kept.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    strictTransportSecurity: false,
  });
  const headers: Array<[string, string]> = [];
  const recorder = { setHeader: (name: string, value: string) => headers.push([name, value]), removeHeader: () => {} };
  setHeaders({} as IncomingMessage, recorder as unknown as ServerResponse, (error) => {
    if (error) throw error;
  });
  if (!headers.some(([name]) => name.toLowerCase() === 'content-security-policy')) throw new Error('helmet set no Content Security Policy');
  app.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done();
  });
}
