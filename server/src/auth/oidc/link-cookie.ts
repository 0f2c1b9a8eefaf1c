import type { FastifyReply, FastifyRequest } from 'fastify';
import { LINK_INTENT_SECONDS } from './link-intents.ts';

export const LINK_COOKIE = 'organiser_oidc_link';
const LINK_COOKIE_PATH = '/auth/oidc';

/**
 * The link intent travels only to the popup's start, only from this site (Strict: the popup is
 * opened by this site's page), and never to scripts.
 */
export function setLinkCookie(request: FastifyRequest, reply: FastifyReply, token: string) {
  reply.setCookie(LINK_COOKIE, token, {
    path: LINK_COOKIE_PATH,
    httpOnly: true,
    sameSite: 'strict',
    secure: request.protocol === 'https',
    maxAge: LINK_INTENT_SECONDS,
  });
}

export function clearLinkCookie(reply: FastifyReply) {
  reply.clearCookie(LINK_COOKIE, { path: LINK_COOKIE_PATH });
}
