import { AppError } from '../errors.ts';

export type Precondition = { namespace: 'DAV:' | 'urn:ietf:params:xml:ns:caldav'; name: string };

/**
 * A refusal in WebDAV's terms: the application's error, and where RFC 4791 or RFC 6578 names one,
 * the precondition that failed, which the routes send as `<DAV:error>` for clients to act on.
 */
export class DavError extends AppError {
  readonly precondition: Precondition | null;

  constructor(statusCode: number, message: string, precondition: Precondition | null = null) {
    super(statusCode, message);
    this.precondition = precondition;
  }
}
