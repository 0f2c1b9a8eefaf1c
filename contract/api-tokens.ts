import { z } from 'zod';

/** What a personal API token may do: `read` calls only (GET and searches), or `write` every bookmark and task call. */
export const API_TOKEN_SCOPES = ['read', 'write'] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];

/** Every token starts so, which tells it from a session's bearer JWT without reading it. */
export const API_TOKEN_PREFIX = 'org_';
export const API_TOKEN_NAME_MAX = 100;
/** Tokens one user may hold at once. */
export const MAX_API_TOKENS = 50;

/** `POST /api/users/me/tokens`. */
export const CreateApiTokenBody = z.strictObject({
  name: z
    .string({ error: 'name is required' })
    .trim()
    .min(1, 'name is required')
    .max(API_TOKEN_NAME_MAX, `must be at most ${API_TOKEN_NAME_MAX} characters`),
  scope: z.enum(API_TOKEN_SCOPES, { error: 'must be "read" or "write"' }),
});
export type CreateApiTokenBody = z.infer<typeof CreateApiTokenBody>;

/** The reply of a creation: the token itself, shown this once (the server keeps only its hash). */
export const CreatedApiToken = z.object({ id: z.string(), token: z.string() });
export type CreatedApiToken = z.infer<typeof CreatedApiToken>;

/** One token as the profile lists it (`GET /api/users/me/tokens`), never the token itself. */
export const ApiToken = z.object({
  id: z.string(),
  name: z.string(),
  scope: z.enum(API_TOKEN_SCOPES),
  createdAt: z.iso.datetime({ offset: true }),
  /** Its latest use, to the minute; null when never used. */
  lastUsedAt: z.iso.datetime({ offset: true }).nullable(),
});
export type ApiToken = z.infer<typeof ApiToken>;

export const ApiTokens = z.array(ApiToken);

export const ApiTokenParams = z.strictObject({ id: z.string().max(100) });
