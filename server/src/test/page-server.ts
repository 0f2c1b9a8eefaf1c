import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type PageHandler = (request: http.IncomingMessage, response: http.ServerResponse) => void;

export type PageServer = {
  /** `http://host:port`, without a trailing slash. */
  origin: string;
  /** How many bytes of each path's body the server managed to write before the client went away. */
  written: Map<string, number>;
  close(): Promise<void>;
};

/** A real HTTP server on a loopback address that serves the pages a test describes, path by path. */
export async function startPageServer(pages: Record<string, PageHandler>, host = '127.0.0.1'): Promise<PageServer> {
  const written = new Map<string, number>();
  const server = http.createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    const originalWrite = response.write.bind(response);
    response.write = ((chunk: Buffer | string, ...rest: never[]) => {
      written.set(path, (written.get(path) ?? 0) + Buffer.byteLength(chunk));
      return originalWrite(chunk, ...rest);
    }) as typeof response.write;
    const handler = pages[path];
    if (handler) handler(request, response);
    else response.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not here</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    written,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A page answered with this HTML and content type. */
export const html =
  (body: string | Buffer, contentType = 'text/html; charset=utf-8'): PageHandler =>
  (_request, response) =>
    response.writeHead(200, { 'content-type': contentType }).end(body);

export const redirect =
  (location: string, status = 302): PageHandler =>
  (_request, response) =>
    response.writeHead(status, { location }).end();
