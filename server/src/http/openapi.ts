import swagger from '@fastify/swagger';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { OpenAPIV3 } from 'openapi-types';
import { z } from 'zod';
import type { CredentialScheme, RequestCheck } from './request-check.ts';

const SECURITY_SCHEMES: Record<CredentialScheme, OpenAPIV3.SecuritySchemeObject> = {
  bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The 15-minute token of a sign-in (`POST /auth/login`)' },
  apiToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'org_…',
    description:
      'A personal API token made in the profile (`POST /api/users/me/tokens`), sent as `Authorization: Bearer org_…`; a "read" token only on GET calls and searches',
  },
  linkdingToken: {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description: 'A personal API token sent as linkding’s clients send theirs, `Authorization: Token org_…`: the `/linkding` API only',
  },
  apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'The shared books key (`BOOKS_API_KEY`), sent without an Authorization header' },
  basic: { type: 'http', scheme: 'basic', description: "E-mail and an app password (or a local account's password)" },
  koreader: {
    type: 'apiKey',
    in: 'header',
    name: 'x-auth-key',
    description: "KOReader's progress sync: the MD5 of an app password, with the account's e-mail in `x-auth-user`",
  },
};

/**
 * A reply that is not JSON (a file, a page, an event stream), for a route's `response`: it is
 * documented under its media type, and sent as it is, never through the serializer.
 */
export const contentReply = (mediaType: string, description: string) => ({
  description,
  content: { [mediaType]: { schema: z.string().meta({ format: 'binary' }) } },
});

const isRequestCheck = (hook: unknown): hook is RequestCheck => typeof hook === 'function' && 'schemes' in hook;

/**
 * The credentials a route takes: those every check before it accepts (auth/authenticate.ts), a
 * route behind a reader's check and an administrator's taking the narrower. No check is a public
 * route, and says so with an empty list.
 */
function securityOf(route: RouteOptions): OpenAPIV3.SecurityRequirementObject[] {
  const checks = [route.onRequest ?? []].flat().filter(isRequestCheck);
  if (checks.length === 0) return [];
  const taken = checks.map(({ schemes }) => schemes).reduce((all, schemes) => all.filter((scheme) => schemes.includes(scheme)));
  return taken.map((scheme) => ({ [scheme]: [] }));
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

const words = (text: string) => text.split(/[^A-Za-z0-9]+/).filter(Boolean);
const capitalised = (word: string) => word[0]!.toUpperCase() + word.slice(1);

/**
 * An operation's id, for generated clients: its method and its path's words, a parameter as
 * `By` and its name (`GET /api/books/{id}/cover` is `getApiBooksByIdCover`). A path is unique
 * with its method, so the id is too, and it changes only when the path does.
 */
export function operationIdOf(method: string, path: string): string {
  const segments = path.split('/').flatMap((segment) =>
    segment.split(/(\{[^}]+\})/).flatMap((part) => (part.startsWith('{') ? ['By', ...words(part)] : words(part))),
  );
  return method.toLowerCase() + segments.map(capitalised).join('');
}

function nameOperations(document: OpenAPIV3.Document): OpenAPIV3.Document {
  const named = new Set<string>();
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = operations?.[method];
      if (!operation) continue;
      operation.operationId ??= operationIdOf(method, path);
      if (named.has(operation.operationId)) throw new Error(`Two operations are named ${operation.operationId}`);
      named.add(operation.operationId);
    }
  }
  return document;
}

/**
 * The API description, generated from the same zod schemas that validate each route, and from the
 * checks before each route for its security. Its server is PUBLIC_URL, or else the origin that
 * served it.
 */
export async function registerOpenApi(app: FastifyInstance, { publicUrl }: { publicUrl: string | undefined }) {
  await app.register(swagger, {
    openapi: {
      info: { title: 'Organiser API', version: '1', license: { name: 'MIT', url: 'https://spdx.org/licenses/MIT.html' } },
      servers: [{ url: publicUrl ?? '/' }],
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    // The paths are the routes' own: PUBLIC_URL's path, if any, is not a prefix of theirs to strip.
    stripBasePath: false,
    transform(input) {
      const { schema, url } = jsonSchemaTransform(input);
      // The router ignores a trailing slash, and a path documented with one is a lint error.
      return { schema: { ...schema, security: securityOf(input.route) }, url: url.length > 1 ? url.replace(/\/$/, '') : url };
    },
    // The description is OpenAPI 3.0, never Swagger 2: `openapi` is what is configured above.
    transformObject: (generated) => nameOperations(('openapiObject' in generated ? generated.openapiObject : {}) as OpenAPIV3.Document),
  });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
