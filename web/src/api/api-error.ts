import { ErrorReply } from '../../../contract/errors.ts';

/** A reply with an error status; `message` is the server's own words, fit to show the user. */
export class ApiError extends Error {
  readonly status: number;
  /** The reply's body as it came, for the fields some errors carry beside the message. */
  readonly body: unknown;
  /** The reply's `Retry-After` in seconds, when it has one. */
  readonly retryAfterSeconds: number | null;

  constructor(status: number, message: string, body: unknown = null, retryAfterSeconds: number | null = null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export async function errorFromReply(reply: Response): Promise<ApiError> {
  const body: unknown = await reply.json().catch(() => null);
  const parsed = ErrorReply.safeParse(body);
  const retryAfter = Number.parseInt(reply.headers.get('retry-after') ?? '', 10);
  const retryAfterSeconds = Number.isInteger(retryAfter) && retryAfter >= 0 ? retryAfter : null;
  if (parsed.success) return new ApiError(reply.status, parsed.data.message, body, retryAfterSeconds);
  return new ApiError(reply.status, `The server answered ${reply.status} ${reply.statusText}`.trim(), body, retryAfterSeconds);
}

/** An error's words; a failed call's as the cache keeps it, a plain object with its message. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string') return error.message;
  return String(error);
}
