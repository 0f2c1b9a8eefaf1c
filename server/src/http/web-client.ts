import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import Negotiator from 'negotiator';
import { AppError } from '../errors.ts';
import { PROJECT_ROOT } from '../server-files.ts';

export const WEB_DIST = path.join(PROJECT_ROOT, 'web/dist');

type Options = {
  distDir?: string | undefined;
  /** Paths the API owns; a browser's page load of any other path is a client route served by index.html. */
  isApiPath(url: string): boolean;
};

/**
 * A browser loading a page: a GET that names text/html among the types it accepts. A device or
 * script at a path no route serves (KOReader's `/users/auth`, a Kobo's `/kobo/…`) asks for JSON or for
 * any type, and gets the 404 it can act on rather than a page it cannot read.
 */
function isPageLoad(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  return new Negotiator(request).mediaTypes().includes('text/html');
}

/** Serves the built client and answers client routes (/book, /task/…) with its index.html. */
export async function registerWebClient(app: FastifyInstance, { distDir = WEB_DIST, isApiPath }: Options) {
  const built = fs.existsSync(path.join(distDir, 'index.html'));
  if (built) {
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      // The build wrote a .br and a .gz beside each text file; the one Accept-Encoding prefers is sent, with Vary.
      preCompressed: true,
      setHeaders(reply, file) {
        // Vite puts a content hash in every asset name, so assets never change under one name.
        const immutable = file.startsWith(path.join(distDir, 'assets') + path.sep);
        reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    if (!isPageLoad(request) || isApiPath(request.url)) throw new AppError(404, `Route ${request.method} ${request.url.split('?')[0]} not found`);
    if (!built) throw new AppError(503, 'The web client is not built: run npm run build');
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
