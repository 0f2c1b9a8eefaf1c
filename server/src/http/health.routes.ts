import { sql } from 'kysely';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorReply } from '../../../contract/errors.ts';
import { HealthReply, type LibraryStatus, type SearchIndexStatus } from '../../../contract/health.ts';
import { AppError } from '../errors.ts';
import type { Storage } from '../storage/database.ts';

type Options = { storage: Storage; library: { status(): LibraryStatus } | null; catalogue: { indexStatus(): SearchIndexStatus | undefined } };

export const healthRoutes: FastifyPluginAsync<Options> = async (app, { storage, library, catalogue }) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/health',
    {
      schema: {
        tags: ['health'],
        summary: 'Liveness and storage readiness, and the last load of the Calibre library folder when one is watched',
        response: { 200: HealthReply, 503: ErrorReply },
      },
    },
    async (request) => {
      try {
        await sql`select 1`.execute(storage.db);
      } catch (error) {
        request.log.error({ err: error }, 'storage is not answering');
        throw new AppError(503, 'Storage is not answering');
      }
      const searchIndex = catalogue.indexStatus();
      return {
        status: 'ok' as const,
        storage: storage.dialect,
        ...(library ? { library: library.status() } : {}),
        ...(searchIndex ? { search_index: searchIndex } : {}),
      };
    },
  );
};
