import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { AppError } from '../errors.ts';
import type { AccessTokens, TokenUser } from './tokens.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user; set on every route registered behind `requireUser`. */
    user: TokenUser;
  }
}

/** An onRequest hook for a scope whose every route needs a valid bearer token. */
export function requireUser(tokens: AccessTokens): onRequestHookHandler {
  return async function checkBearer(request: FastifyRequest, _reply: FastifyReply) {
    const header = request.headers.authorization;
    const match = header?.match(/^Bearer\s+(\S+)$/i);
    if (!match?.[1]) throw new AppError(401, 'Sign-in required', { 'www-authenticate': 'Bearer' });
    request.user = await tokens.verify(match[1]);
  };
}
