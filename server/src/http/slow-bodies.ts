import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { HttpLimits } from './http-limits.ts';

/**
 * Ends a request whose body trickles (a byte every few seconds keeps a socket and its memory for
 * ever): every body must bring `minBytesPerWindow` in each window, and every body but an upload's
 * must end within `bodyMs`. Bytes are counted on the socket, so that nothing reads the body
 * before its parser does. The watch lasts until the body has ended, whatever was replied: a
 * request refused before its body was read (a 401) still has to send it, or lose the connection.
 */
export function endSlowBodies(app: FastifyInstance, limits: Pick<HttpLimits, 'bodyWindowMs' | 'minBytesPerWindow' | 'bodyMs'>) {
  app.addHook('onRequest', async (request, reply) => {
    const { raw } = request;
    const { socket } = raw;
    // A request without a body has nothing to watch; nor has one injected without a socket (tests).
    const hasBody = raw.headers['transfer-encoding'] !== undefined || Number(raw.headers['content-length'] ?? 0) > 0;
    if (!hasBody || raw.complete || typeof socket?.bytesRead !== 'number') return;
    const upload = request.routeOptions.config.upload === true;
    const started = Date.now();
    let bytesAtWindowStart = socket.bytesRead;
    const timer = setInterval(() => {
      if (raw.complete || socket.destroyed) return stop();
      const slow = socket.bytesRead - bytesAtWindowStart < limits.minBytesPerWindow;
      const late = !upload && Date.now() - started >= limits.bodyMs;
      bytesAtWindowStart = socket.bytesRead;
      if (!slow && !late) return;
      stop();
      request.log.info({ reqId: request.id, slow, late }, 'request body too slow: connection closed');
      closeConnection(socket, reply.raw.headersSent ? undefined : TOO_SLOW);
    }, limits.bodyWindowMs);
    const stop = () => clearInterval(timer);
    raw.once('end', stop);
    raw.once('close', stop);
  });
}

const TOO_SLOW_BODY = JSON.stringify({ statusCode: 408, error: STATUS_CODES[408], message: 'The request body came too slowly' });
const TOO_SLOW = [
  'HTTP/1.1 408 Request Timeout',
  'Content-Type: application/json; charset=utf-8',
  `Content-Length: ${Buffer.byteLength(TOO_SLOW_BODY)}`,
  'Connection: close',
  '',
  TOO_SLOW_BODY,
].join('\r\n');

/** How long the 408 has to leave before the socket is destroyed anyway (a client that does not read). */
const FLUSH_MS = 1000;

/** Written on the socket itself, as Node answers its own request timeout: the parser is still waiting for the body. */
function closeConnection(socket: Socket, response: string | undefined) {
  if (response === undefined) return socket.destroy();
  socket.end(response);
  setTimeout(() => socket.destroy(), FLUSH_MS).unref();
}
