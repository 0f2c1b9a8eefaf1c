import { ErrorReply } from '../../../contract/errors.ts';

/** A reply with an error status; `message` is the server's own words, fit to show the user. */
export class ApiError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
  }
}

export async function errorFromReply(reply: Response): Promise<ApiError> {
  const body: unknown = await reply.json().catch(() => null);
  const parsed = ErrorReply.safeParse(body);
  if (parsed.success) return new ApiError(reply.status, parsed.data.message);
  return new ApiError(reply.status, `The server answered ${reply.status} ${reply.statusText}`.trim());
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
