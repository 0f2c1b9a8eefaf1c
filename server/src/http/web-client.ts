import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.ts';
import { PROJECT_ROOT } from '../server-files.ts';

export const WEB_DIST = path.join(PROJECT_ROOT, 'web/dist');

type Options = {
  distDir?: string | undefined;
  /** Paths the API owns; every other GET is a client route served by index.html. */
  isApiPath(url: string): boolean;
};

/** Serves the built client and answers client routes (/book, /task/…) with its index.html. */
export async function registerWebClient(app: FastifyInstance, { distDir = WEB_DIST, isApiPath }: Options) {
  const built = fs.existsSync(path.join(distDir, 'index.html'));
  if (built) {
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      setHeaders(reply, file) {
        // Vite puts a content hash in every asset name, so assets never change under one name.
        const immutable = file.startsWith(path.join(distDir, 'assets') + path.sep);
        reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !isApiPath(request.url);
    if (!isPage) throw new AppError(404, `Route ${request.method} ${request.url.split('?')[0]} not found`);
    if (!built) throw new AppError(503, 'The web client is not built: run npm run build');
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
