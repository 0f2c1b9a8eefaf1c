import type { FastifyRequest } from 'fastify';

/**
 * The credentials the API description names, each a security scheme of http/openapi.ts. A
 * calendar token travels in the path, which no OpenAPI scheme can say: it has none.
 */
export type CredentialScheme = 'bearer' | 'apiToken' | 'linkdingToken' | 'apiKey' | 'basic' | 'koreader';

/**
 * An onRequest hook: it runs before the body is read, so a caller who may not ask is refused
 * before anything is parsed. Its `schemes` come from the credentials it tries, so the API
 * description of the routes behind it says what it takes. The checks are auth's; the type sits
 * here, below both auth and the API description that reads it.
 */
export type RequestCheck = ((request: FastifyRequest) => Promise<void>) & { readonly schemes: readonly CredentialScheme[] };
