import type { FastifyRequest } from 'fastify';

/**
 * The origin to write into addresses handed back to the caller (the calendar feed's URL, its
 * links to task pages): PUBLIC_URL when set, else the one the caller reached us by — with
 * `TRUST_PROXY`, the proxy's forwarded host and scheme. Unlike a mail or a sign-in redirect, such an
 * address goes only to the caller who sent the Host header, so it can mislead no one else.
 */
export function requestOrigin(publicUrl: string | undefined, request: FastifyRequest): string {
  return publicUrl ?? `${request.protocol}://${request.host}`;
}
