import type { FastifyBaseLogger } from 'fastify';

/** What services log with: the app's logger in the server; anything with these methods (`console`) in a command. */
export type Logger = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
