import path from 'node:path';
import send from '@fastify/send';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, notFound } from '../../errors.ts';

export type SentFile = {
  /** The real path of a file already found inside the library (library.files.ts). */
  path: string;
  contentType: string;
  contentDisposition?: string;
};

/**
 * Sends a file with @fastify/send, which answers `Range` (206, or 416 for a range outside the
 * file: an e-reader resumes a large PDF), `If-None-Match`/`If-Modified-Since` (304) and HEAD. The
 * files are a user's own books behind sign-in: caches may keep them for that user only, and ask
 * again each time (the ETag makes that a 304).
 */
export async function sendLibraryFile(request: FastifyRequest, reply: FastifyReply, file: SentFile) {
  // send decodes the path it is given as a URL path: the name is encoded, the folder is its root.
  const sent = await send(request.raw, `/${encodeURIComponent(path.basename(file.path))}`, {
    root: path.dirname(file.path),
    dotfiles: 'allow',
    cacheControl: false,
    acceptRanges: true,
    etag: true,
    lastModified: true,
  });
  if (sent.type === 'error') {
    sent.stream.destroy();
    if (sent.statusCode === 416) {
      throw new AppError(416, 'The requested range lies outside the file', { 'content-range': sent.headers['Content-Range'] ?? '' });
    }
    throw notFound('File');
  }
  reply.code(sent.statusCode).headers(sent.headers).header('cache-control', 'private, no-cache');
  if (sent.statusCode !== 304) reply.header('content-type', file.contentType);
  if (file.contentDisposition) reply.header('content-disposition', file.contentDisposition);
  return reply.send(sent.stream);
}
