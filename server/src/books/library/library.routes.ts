import { create as contentDisposition } from 'content-disposition';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BookFileParams, BookIdParams, CoverQuery } from '../../../../contract/books.ts';
import { ErrorReply } from '../../../../contract/errors.ts';
import { type Authenticator, guardRoutes } from '../../auth/authenticate.ts';
import { notFound } from '../../errors.ts';
import { contentReply } from '../../http/openapi.ts';
import type { BooksService } from '../books.service.ts';
import { mimeTypeOf } from './book-formats.ts';
import type { CoverThumbnails } from './covers.ts';
import { asciiFileName, downloadName } from './download-name.ts';
import type { LibraryFiles } from './library.files.ts';
import { sendLibraryFile } from './send-library-file.ts';

type Options = { books: BooksService; files: LibraryFiles; thumbnails: CoverThumbnails; authenticator: Authenticator };

/** The header's two names: the Unicode one (`filename*`), and for clients that read only `filename` its ASCII transliteration. */
function downloadDisposition(name: string): string {
  return contentDisposition(name, { fallback: asciiFileName(name) });
}

const NOT_MODIFIED = z.null().describe('Unchanged since the ETag or the date the request gave');

/** A book's cover and files from the Calibre library folder (issue 13), for the catalogue's readers and e-readers signed in with Basic. */
export const libraryRoutes: FastifyPluginAsync<Options> = async (app, { books, files, thumbnails, authenticator }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  guardRoutes(app, authenticator.requireEReader);

  routes.get(
    '/api/books/:id/cover',
    {
      schema: {
        tags: ['books'],
        summary: 'The book’s cover (JPEG): as Calibre keeps it, or a thumbnail at most 160×240 for cards; 404 when it is not on disk',
        params: BookIdParams,
        querystring: CoverQuery,
        response: { 200: contentReply('image/jpeg', 'The cover'), 304: NOT_MODIFIED, 400: ErrorReply, 401: ErrorReply, 404: ErrorReply },
      },
    },
    async (request, reply) => {
      const cover = await files.cover(await books.get(request.params.id));
      if (!cover) throw notFound('Cover');
      const served = request.query.size === 'thumb' ? await thumbnails.thumbnailOf(request.params.id, cover) : cover.path;
      return sendLibraryFile(request, reply, { path: served, contentType: 'image/jpeg' });
    },
  );

  routes.get(
    '/api/books/:id/file/:format',
    {
      schema: {
        tags: ['books'],
        summary: 'Download one format of the book (lower case: epub, pdf…), with Range, ETag and Last-Modified; 404 when it is not on disk',
        params: BookFileParams,
        response: {
          200: contentReply('application/octet-stream', 'The file, typed by its format (application/epub+zip, application/pdf…)'),
          206: contentReply('application/octet-stream', 'The range asked for'),
          304: NOT_MODIFIED,
          401: ErrorReply,
          404: ErrorReply,
          416: ErrorReply,
        },
      },
    },
    async (request, reply) => {
      const book = await books.get(request.params.id);
      const { format } = request.params;
      const file = await files.file(book, format);
      if (!file) throw notFound('File');
      return sendLibraryFile(request, reply, {
        path: file.path,
        contentType: mimeTypeOf(format),
        contentDisposition: downloadDisposition(downloadName(book, format)),
      });
    },
  );
};
