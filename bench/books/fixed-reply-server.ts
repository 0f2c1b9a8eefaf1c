import fs from 'node:fs';
import Fastify from 'fastify';

/**
 * The floor for the search route: the same framework answering the same path with the same
 * bytes, with no search behind it.
 */
const [bodyFile, port] = process.argv.slice(2) as [string, string];
const body = fs.readFileSync(bodyFile);
const app = Fastify();
app.get('/api/books', (_request, reply) => reply.header('content-type', 'application/json; charset=utf-8').send(body));
await app.listen({ port: Number(port), host: '127.0.0.1' });
console.log('ready');
