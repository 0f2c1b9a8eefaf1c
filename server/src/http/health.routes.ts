import { sql } from 'kysely';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorReply } from '../../../contract/errors.ts';
import { HealthReply } from '../../../contract/health.ts';
import { AppError } from '../errors.ts';
import type { Storage } from '../storage/database.ts';

export const healthRoutes: FastifyPluginAsync<{ storage: Storage }> = async (app, { storage }) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/health',
    {
      schema: {
        tags: ['health'],
        summary: 'Liveness and storage readiness',
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
      return { status: 'ok' as const, storage: storage.dialect };
    },
  );
};
