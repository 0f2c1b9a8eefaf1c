import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';
import type { AccessTokens, TokenUser } from './tokens.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user; set on every route registered behind `requireUser`. */
    user: TokenUser;
  }
}

export type RequestCheck = (request: FastifyRequest) => Promise<void>;

/** An onRequest hook for a scope whose every route needs a valid bearer token. */
export function requireUser(tokens: AccessTokens): RequestCheck {
  return async function checkBearer(request) {
    const header = request.headers.authorization;
    const match = header?.match(/^Bearer\s+(\S+)$/i);
    if (!match?.[1]) throw new AppError(401, 'Sign-in required', { 'www-authenticate': 'Bearer' });
    request.user = await tokens.verify(match[1]);
  };
}
