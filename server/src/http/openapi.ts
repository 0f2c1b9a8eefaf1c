import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/** The `security` of a route that a session's bearer token or a personal API token may call (bookmarks, tasks). */
export const SESSION_OR_API_TOKEN: Array<Record<string, string[]>> = [{ bearer: [] }, { apiToken: [] }];

/** The API description, generated from the same zod schemas that validate each route. */
export async function registerOpenApi(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      info: { title: 'Organiser API', version: '1' },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The 15-minute token of a sign-in (`POST /auth/login`)' },
          apiToken: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'org_…',
            description:
              'A personal API token made in the profile (`POST /api/users/me/tokens`), sent as `Authorization: Bearer org_…`; accepted on bookmark and task calls only, and a "read" token only on GET calls and searches',
          },
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
          basic: { type: 'http', scheme: 'basic', description: 'E-mail and an app password (or a local account\'s password); OPDS, covers and book files only' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
