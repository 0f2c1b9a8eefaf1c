import { create as contentDisposition } from 'content-disposition';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { BookFileParams, BookIdParams, type CatalogueBook, CoverQuery } from '../../../../contract/books.ts';
import { ErrorReply } from '../../../../contract/errors.ts';
import type { Authenticator } from '../../auth/authenticate.ts';
import { notFound } from '../../errors.ts';
import type { BooksService } from '../books.service.ts';
import { mimeTypeOf } from './book-formats.ts';
import type { CoverThumbnails } from './covers.ts';
import type { LibraryFiles } from './library.files.ts';
import { sendLibraryFile } from './send-library-file.ts';

type Options = { books: BooksService; files: LibraryFiles; thumbnails: CoverThumbnails; authenticator: Authenticator };

/** Characters no file name may hold on the systems a download is saved to. */
const UNSAFE_IN_FILE_NAMES = /[\\/:*?"<>|\p{Cc}]+/gu;

/** A download's name from the book itself (Calibre's own file names are folded to ASCII): "Title - Author.epub". */
function downloadName(book: Pick<CatalogueBook, 'id' | 'title' | 'author'>, format: string): string {
  const name = [book.title, book.author].map((part) => part.replace(UNSAFE_IN_FILE_NAMES, ' ').trim()).filter(Boolean).join(' - ');
  return `${(name || `book ${book.id}`).slice(0, 200)}.${format}`;
}

/** A book's cover and files from the Calibre library folder (issue 13), for the catalogue's readers and e-readers signed in with Basic. */
export const libraryRoutes: FastifyPluginAsync<Options> = async (app, { books, files, thumbnails, authenticator }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const security: Array<Record<string, string[]>> = [{ bearer: [] }, { apiKey: [] }, { basic: [] }];
  app.addHook('onRequest', authenticator.requireEReader);

  routes.get(
    '/api/books/:id/cover',
    {
      schema: {
        tags: ['books'],
        summary: 'The book’s cover (JPEG): as Calibre keeps it, or a thumbnail at most 160×240 for cards; 404 when it is not on disk',
        security,
        params: BookIdParams,
        querystring: CoverQuery,
        response: { 400: ErrorReply, 401: ErrorReply, 404: ErrorReply },
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
        security,
        params: BookFileParams,
        response: { 401: ErrorReply, 404: ErrorReply, 416: ErrorReply },
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
        contentDisposition: contentDisposition(downloadName(book, format)),
      });
    },
  );
};
