import { decodeJwt } from 'jose/jwt/decode';
import { z } from 'zod';
import { AuthReply } from '../../../contract/auth.ts';
import { errorFromReply } from './api-error.ts';

/** What the client needs from whoever keeps the session: the store, in the app. */
export interface Session {
  token(): string | null;
  signedIn(reply: AuthReply): void;
  signedOut(): void;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON; a FormData as multipart/form-data. */
  body?: unknown;
  signal?: AbortSignal;
  /** Extra request headers, such as the `pageCursor` of a list's next page. */
  headers?: Record<string, string>;
  /** Sign-in calls carry no bearer token, and their 401 means wrong credentials rather than an expired token. */
  anonymous?: boolean;
  /**
   * Hears the request body's bytes as they leave (an upload's progress bar). fetch cannot tell
   * them, so such a request goes by XMLHttpRequest.
   */
  onUploadProgress?: (sent: number, total: number) => void;
  /**
   * Lets the request outlive the page (fetch's `keepalive`): the reader's last position, saved as
   * the tab closes. A beacon cannot carry the bearer header; a keepalive fetch can.
   */
  keepalive?: boolean;
}

export interface HttpClient {
  /** The reply body, parsed with `reply`. */
  json<S extends z.ZodType>(path: string, reply: S, options?: RequestOptions): Promise<z.output<S>>;
  /** For calls answered with 204 No Content. */
  empty(path: string, options?: RequestOptions): Promise<void>;
  /** The successful response itself, for the caller to read its body as it arrives. */
  stream(path: string, options?: RequestOptions): Promise<Response>;
}

export interface HttpClientOptions {
  session: Session;
  /** Empty in the browser, where the API shares the page's origin. */
  origin?: string;
  /** The time, in epoch milliseconds; tests move it. */
  now?: () => number;
}

const REFRESH_LOCK = 'organiser.refresh';

/** A token this close to its end is renewed before a call rather than sent to be refused on the way. */
const RENEW_BEFORE_MS = 30_000;

export function createHttpClient({ session, origin = '', now = Date.now }: HttpClientOptions): HttpClient {
  let refreshing: Promise<string> | null = null;
  /**
   * The token the last refresh gave and when, by this browser's clock, to renew it: its life
   * (`exp` − `iat`) counted from its arrival, so that a clock set apart from the server's neither
   * renews every call nor waits for the 401.
   */
  let renewed: { token: string; renewAt: number | null } | null = null;

  async function send(path: string, options: RequestOptions, token: string | null): Promise<Response> {
    const headers = new Headers(options.headers);
    if (token !== null) headers.set('authorization', `Bearer ${token}`);
    try {
      if (options.onUploadProgress) return await sendWithProgress(origin + path, options, headers, options.onUploadProgress);
      return await fetch(origin + path, {
        method: options.method ?? 'GET',
        headers,
        body: requestBody(options.body, headers),
        credentials: 'same-origin',
        signal: options.signal,
        keepalive: options.keepalive,
      });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      throw new Error('The server cannot be reached', { cause: error });
    }
  }

  async function refresh(): Promise<string> {
    const reply = await send('/auth/refresh', { method: 'POST' }, null);
    if (!reply.ok) {
      const error = await errorFromReply(reply);
      if (sessionIsOver(reply.status)) session.signedOut();
      throw error;
    }
    const auth = await parseReply(reply, AuthReply, 'POST /auth/refresh');
    session.signedIn(auth);
    const life = lifeOf(auth.idToken);
    renewed = { token: auth.idToken, renewAt: life === null ? null : now() + life - RENEW_BEFORE_MS };
    return auth.idToken;
  }

  /**
   * A 401 for a token that another call has since replaced retries with the new one; any other
   * joins the refresh under way, or starts it, so that concurrent 401s share one refresh.
   */
  function freshToken(rejected: string): Promise<string> {
    const current = session.token();
    if (refreshing === null && current !== null && current !== rejected) return Promise.resolve(current);
    refreshing ??= oneTabAtATime(refresh).finally(() => {
      refreshing = null;
    });
    return refreshing;
  }

  /**
   * The token to send: a fresh one first when it has expired or is about to (a page opened again
   * after a while), so that the calls of a page's start are not refused one by one with a 401.
   */
  async function tokenToSend(): Promise<string | null> {
    const token = session.token();
    if (token === null) return null;
    const expiresAt = expiryOf(token);
    const renewAt = token === renewed?.token ? renewed.renewAt : expiresAt === null ? null : expiresAt - RENEW_BEFORE_MS;
    if (renewAt === null || now() < renewAt) return token;
    return freshToken(token);
  }

  async function authorised(path: string, options: RequestOptions): Promise<Response> {
    if (options.anonymous) return send(path, options, null);
    const sent = await tokenToSend();
    const reply = await send(path, options, sent);
    if (reply.status !== 401 || sent === null) return reply;
    await reply.body?.cancel();
    return send(path, options, await freshToken(sent));
  }

  async function succeeded(path: string, options: RequestOptions): Promise<Response> {
    const reply = await authorised(path, options);
    if (!reply.ok) throw await errorFromReply(reply);
    return reply;
  }

  return {
    async json(path, reply, options = {}) {
      const response = await succeeded(path, options);
      return parseReply(response, reply, `${options.method ?? 'GET'} ${path}`);
    },
    async empty(path, options = {}) {
      const response = await succeeded(path, options);
      await response.body?.cancel();
    },
    stream: (path, options = {}) => succeeded(path, options),
  };
}

/**
 * The request by XMLHttpRequest, whose upload tells its progress; its reply made a Response, so
 * that token refresh and reply parsing are the same as fetch's.
 */
function sendWithProgress(
  url: string,
  options: RequestOptions,
  headers: Headers,
  onUploadProgress: (sent: number, total: number) => void,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const signal = options.signal;
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    xhr.open(options.method ?? 'GET', url);
    const body = requestBody(options.body, headers);
    headers.forEach((value, name) => xhr.setRequestHeader(name, value));
    xhr.withCredentials = true;
    xhr.upload.onprogress = (event) => onUploadProgress(event.loaded, event.lengthComputable ? event.total : 0);
    xhr.onload = () => {
      const replyHeaders = new Headers();
      for (const line of xhr.getAllResponseHeaders().trim().split(/[\r\n]+/)) {
        const at = line.indexOf(':');
        if (at > 0) replyHeaders.append(line.slice(0, at).trim(), line.slice(at + 1).trim());
      }
      resolve(new Response(xhr.status === 204 ? null : xhr.responseText, { status: xhr.status, headers: replyHeaders }));
    };
    xhr.onerror = () => reject(new TypeError('The upload failed'));
    xhr.onabort = () => reject(signal?.reason ?? new DOMException('The upload was cancelled', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send((body ?? null) as XMLHttpRequestBodyInit | null);
  });
}

/** fetch sets a FormData's content type itself, with the boundary that only it knows. */
function requestBody(body: unknown, headers: Headers): BodyInit | undefined {
  if (body === undefined || body instanceof FormData) return body;
  headers.set('content-type', 'application/json');
  return JSON.stringify(body);
}

async function parseReply<S extends z.ZodType>(reply: Response, schema: S, call: string): Promise<z.output<S>> {
  const parsed = schema.safeParse(await reply.json());
  if (!parsed.success) throw new Error(`Unexpected reply to ${call}: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

const TokenTimes = z.object({ exp: z.number(), iat: z.number().optional() });

/**
 * A JWT's `exp` and `iat` in epoch milliseconds, read without checking its signature: only to
 * decide when to renew it, never to trust it. Null for a token that is not a JWT with an `exp`.
 */
function timesOf(token: string): { expiresAt: number; issuedAt: number | null } | null {
  let claims: unknown;
  try {
    claims = decodeJwt(token);
  } catch {
    return null;
  }
  const times = TokenTimes.safeParse(claims);
  if (!times.success) return null;
  return { expiresAt: times.data.exp * 1000, issuedAt: times.data.iat === undefined ? null : times.data.iat * 1000 };
}

const expiryOf = (token: string): number | null => timesOf(token)?.expiresAt ?? null;

function lifeOf(token: string): number | null {
  const times = timesOf(token);
  return times === null || times.issuedAt === null ? null : times.expiresAt - times.issuedAt;
}

/** A refused refresh ends the session; an overloaded or unreachable server does not. */
function sessionIsOver(status: number): boolean {
  return status >= 400 && status < 500 && status !== 429;
}

/**
 * The server rotates the refresh cookie on use and every tab shares it: were two tabs to refresh
 * at once, the second would present the cookie the first just spent. Web Locks are missing
 * outside secure contexts (plain HTTP on a LAN address), where tabs take their chance.
 */
function oneTabAtATime<T>(task: () => Promise<T>): Promise<T> {
  const locks = globalThis.navigator?.locks;
  return locks ? locks.request(REFRESH_LOCK, task) : task();
}
