import fs from 'node:fs';
import Fastify from 'fastify';
import type { FixedRoute } from './fixed-reply.ts';

/**
 * A benchmark's HTTP floor: the same framework answering the same routes with the same bytes,
 * with nothing behind them. Run as its own process (fixed-reply.ts), so that it does not share
 * an event loop with the benchmark.
 */
const [routesFile, port] = process.argv.slice(2) as [string, string];
const routes = JSON.parse(fs.readFileSync(routesFile, 'utf8')) as FixedRoute[];
const app = Fastify();
for (const { method, url, body } of routes) {
  const bytes = Buffer.from(body);
  app.route({ method, url, handler: (_request, reply) => reply.header('content-type', 'application/json; charset=utf-8').send(bytes) });
}
await app.listen({ port: Number(port), host: '127.0.0.1' });
console.log('ready');
