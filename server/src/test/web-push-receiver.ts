import { createECDH, randomBytes } from 'node:crypto';
import type http from 'node:http';
import ece from 'http_ece';
import { importJWK, jwtVerify } from 'jose';

/** What a browser makes when it subscribes: a P-256 key pair and an auth secret, the private half kept to decrypt with. */
export function browserKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
    /** The payload of a Web Push request, decrypted as the browser would (RFC 8291, aes128gcm). */
    decrypt: (body: Buffer): string => ece.decrypt(body, { version: 'aes128gcm', privateKey: ecdh, authSecret: auth }).toString('utf8'),
  };
}

/**
 * Checks a Web Push request's VAPID credentials as a push service does (RFC 8292): the
 * `Authorization: vapid t=<JWT>, k=<public key>` header, the JWT signed (ES256) by that key, for
 * the push service's origin, unexpired. Returns the JWT's claims and the key.
 */
export async function verifyVapid(headers: http.IncomingHttpHeaders, audience: string) {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(headers.authorization ?? '');
  if (!match) throw new Error(`not a VAPID authorization: ${headers.authorization}`);
  const [, jwt, k] = match as unknown as [string, string, string];
  const raw = Buffer.from(k, 'base64url');
  const key = await importJWK(
    { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33, 65).toString('base64url') },
    'ES256',
  );
  const { payload } = await jwtVerify(jwt, key, { audience, algorithms: ['ES256'] });
  return { claims: payload, publicKey: k };
}
