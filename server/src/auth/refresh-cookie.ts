import type { FastifyReply, FastifyRequest } from 'fastify';

export const REFRESH_COOKIE = 'organiser_refresh';
const COOKIE_PATH = '/auth';

/** The refresh token travels only to /auth, only from this site, and never to scripts. */
export function setRefreshCookie(request: FastifyRequest, reply: FastifyReply, token: string, sessionDays: number) {
  reply.setCookie(REFRESH_COOKIE, token, {
    path: COOKIE_PATH,
    httpOnly: true,
    sameSite: 'strict',
    secure: request.protocol === 'https',
    maxAge: sessionDays * 24 * 60 * 60,
  });
}

export function clearRefreshCookie(reply: FastifyReply) {
  reply.clearCookie(REFRESH_COOKIE, { path: COOKIE_PATH });
}
