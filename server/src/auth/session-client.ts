import type { FastifyRequest } from 'fastify';

/** The device a session is given to, shown in the user's list of sessions. */
export type SessionClient = { userAgent: string | null; address: string | null };

export const sessionClientOf = (request: FastifyRequest): SessionClient => ({
  userAgent: request.headers['user-agent'] ?? null,
  address: request.ip,
});
