import fs from 'node:fs';
import Fastify from 'fastify';

/** The floor for the task page: the same framework answering the same path with the same bytes, no query behind it. */
const [bodyFile, port] = process.argv.slice(2) as [string, string];
const body = fs.readFileSync(bodyFile);
const app = Fastify();
app.get('/schedule', (_request, reply) => reply.header('content-type', 'application/json; charset=utf-8').send(body));
await app.listen({ port: Number(port), host: '127.0.0.1' });
console.log('ready');
