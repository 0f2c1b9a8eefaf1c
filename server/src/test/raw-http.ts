import http from 'node:http';
import net from 'node:net';
import { once } from 'node:events';

/** A raw connection to the server: what it has received, and when it was closed. */
export type RawConnection = {
  socket: net.Socket;
  received(): string;
  /** Resolves when the server closes the connection (or it errors), with the ms it stayed open. */
  closed: Promise<number>;
  /** Writes unless the connection is gone; false when it is. */
  send(text: string): boolean;
};

export async function openConnection(port: number): Promise<RawConnection> {
  const socket = net.connect(port, '127.0.0.1');
  const opened = Date.now();
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (received += chunk));
  socket.on('error', () => {});
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now() - opened)));
  await once(socket, 'connect');
  return {
    socket,
    received: () => received,
    closed,
    send: (text) => !socket.destroyed && socket.write(text),
  };
}

/** Starts a request whose body is announced long and then sent a byte every `everyMs`, until the connection closes. */
export async function trickleBody(port: number, path: string, everyMs: number, headers: Record<string, string> = {}): Promise<RawConnection> {
  const connection = await openConnection(port);
  const lines = Object.entries({ 'content-type': 'application/json', 'content-length': '100000', ...headers }).map(([k, v]) => `${k}: ${v}`);
  connection.send(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${lines.join('\r\n')}\r\n\r\n{`);
  const timer = setInterval(() => connection.send(' ') || clearInterval(timer), everyMs);
  void connection.closed.then(() => clearInterval(timer));
  return connection;
}

/** GET on a connection of its own (no agent, so no pooled socket the cap may have closed): status and ms. */
export function timedGet(port: number, path: string, timeoutMs?: number): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const signal = timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs);
    const request = http.get({ host: '127.0.0.1', port, path, agent: false, signal }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, ms: performance.now() - started }));
    });
    request.on('error', reject);
  });
}
