import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, installErrorHandler } from './errors.ts';

type LogLine = { level: number; msg: string; statusCode?: number; message?: string; err?: { stack?: string } };
const WARN = 40;
const ERROR = 50;

describe('the error handler', () => {
  let app: FastifyInstance;
  let lines: LogLine[];

  beforeAll(async () => {
    app = Fastify({ logger: { level: 'info', stream: { write: (line: string) => lines.push(JSON.parse(line) as LogLine) } } });
    installErrorHandler(app);
    app.get('/busy', async () => {
      throw new AppError(503, 'Too busy right now', { 'retry-after': '5' });
    });
    app.get('/broken', async () => {
      throw new Error('a bug with a secret in it');
    });
    await app.ready();
  });
  afterAll(() => app.close());

  const call = async (url: string) => {
    lines = [];
    const response = await app.inject({ url });
    return { status: response.statusCode, headers: response.headers, body: response.json() as unknown };
  };
  const problems = () => lines.filter((line) => line.level >= WARN);

  it('answers a refusal the code chose with its message, and logs one warning without a stack', async () => {
    const reply = await call('/busy');
    expect(reply).toMatchObject({ status: 503, headers: { 'retry-after': '5' } });
    expect(reply.body).toEqual({ statusCode: 503, error: 'Service Unavailable', message: 'Too busy right now' });
    expect(problems()).toEqual([expect.objectContaining({ level: WARN, msg: 'request refused', statusCode: 503, message: 'Too busy right now' })]);
    expect(problems()[0]).not.toHaveProperty('err');
  });

  it('answers an unexpected error with no detail, and logs it as an error with its stack', async () => {
    const reply = await call('/broken');
    expect(reply.body).toEqual({ statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' });
    expect(problems()).toEqual([expect.objectContaining({ level: ERROR, msg: 'request failed' })]);
    expect(problems()[0]!.err?.stack).toContain('a bug with a secret in it');
  });
});
