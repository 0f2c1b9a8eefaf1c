import fs from 'node:fs';
import Fastify from 'fastify';

/**
 * The floor for the bookmark routes: the same framework answering the same paths with the same
 * bytes, with no storage behind them.
 */
const [searchFile, pageFile, port] = process.argv.slice(2) as [string, string, string];
const search = fs.readFileSync(searchFile);
const page = fs.readFileSync(pageFile);
const app = Fastify();
const json = 'application/json; charset=utf-8';
app.post('/api/bookmarks/query', (_request, reply) => reply.header('content-type', json).send(search));
app.get('/bookmarks/', (_request, reply) => reply.header('content-type', json).send(page));
await app.listen({ port: Number(port), host: '127.0.0.1' });
console.log('ready');
