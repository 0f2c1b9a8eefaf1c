import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * At most `max` open connections, so that a flood of them cannot take every file descriptor.
 * Node's own `server.maxConnections` refuses every new connection at the cap, which would let
 * slow attackers lock out everyone, `/api/health` included. Here a new connection instead
 * closes the oldest one that does no work: idle between requests, still sending its headers, or
 * still sending a body. Only when every connection has a request being answered is the new one
 * refused. The timeouts (http-limits.ts) keep the slow ones few; this keeps the newest alive.
 */
export function capConnections(server: Server, max: number) {
  const open = new Set<Socket>();
  const requestOf = new WeakMap<Socket, IncomingMessage>();

  server.on('request', (request: IncomingMessage, response) => {
    requestOf.set(request.socket, request);
    response.once('close', () => {
      if (requestOf.get(request.socket) === request) requestOf.delete(request.socket);
    });
  });

  server.on('connection', (socket: Socket) => {
    if (open.size >= max) {
      const victim = oldestWithoutWork(open, requestOf);
      if (victim === undefined) return socket.destroy();
      victim.destroy();
      open.delete(victim);
    }
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
}

/** Sets keep insertion order: the first match is the oldest. */
function oldestWithoutWork(open: Set<Socket>, requestOf: WeakMap<Socket, IncomingMessage>): Socket | undefined {
  for (const socket of open) {
    const request = requestOf.get(socket);
    if (request === undefined || !request.complete) return socket;
  }
  return undefined;
}
