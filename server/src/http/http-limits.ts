/**
 * How long a client may take to send a request. The numbers and why are in
 * docs/behaviour/bad-input-and-limits.md ("HTTP limits"); only the connection cap is a setting
 * (MAX_CONNECTIONS).
 */
export type HttpLimits = {
  /** From the connection (or the previous request on it) to the end of the headers. */
  headersMs: number;
  /** How often Node checks the headers deadline; a deadline is enforced within this much. */
  checkEveryMs: number;
  /** A body must bring at least `minBytesPerWindow` in each window of this length, or end. */
  bodyWindowMs: number;
  minBytesPerWindow: number;
  /** The whole of a body, except on upload routes (whose bodies only need to keep the pace). */
  bodyMs: number;
  /** An idle kept-alive connection is closed after this. */
  keepAliveMs: number;
  /** Open connections; past this, the oldest one that is idle or still sending is closed for a new one. */
  maxConnections: number;
};

export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  headersMs: 10_000,
  checkEveryMs: 1_000,
  bodyWindowMs: 10_000,
  minBytesPerWindow: 10 * 1024,
  bodyMs: 30_000,
  keepAliveMs: 72_000,
  maxConnections: 1000,
};

declare module 'fastify' {
  interface FastifyContextConfig {
    /** An upload: its body may take as long as it keeps the pace (`endSlowBodies`). */
    upload?: boolean;
  }
}

/** The route config of an upload route. */
export const UPLOAD_ROUTE = { upload: true };
