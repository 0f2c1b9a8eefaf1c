import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { escapeText } from 'entities';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { type Configuration } from 'oidc-provider';

/** A person known to the test provider; the claims are what it tells the app about them. */
export type TestAccount = {
  email?: string;
  email_verified?: boolean;
  name?: string;
  picture?: string;
};

export type TestIdentityProviderOptions = {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  accounts: Record<string, TestAccount>;
  /** Google puts the profile claims in the ID token; most providers keep them for the userinfo endpoint. */
  claimsInIdToken?: boolean;
  /** Listen on this port (0: any free one). */
  port?: number;
};

/** `close` may be called again once the provider is down. */
export type TestIdentityProvider = { issuer: string; close(): Promise<void> };

/**
 * A real OpenID Connect provider (oidc-provider) on loopback. Its one interaction page asks for
 * an account name and offers "Sign in" and "Deny"; signing in grants every scope asked for.
 */
export async function startTestIdentityProvider(options: TestIdentityProviderOptions): Promise<TestIdentityProvider> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, await configuration(options));
  const handleProtocol = provider.callback();

  server.on('request', (request: http.IncomingMessage, response: http.ServerResponse) => {
    // A browser asks for the icon of the popup's page; a 404 would be a console error in the app's e2e tests.
    if (request.url === '/favicon.ico') {
      response.statusCode = 204;
      response.end();
      return;
    }
    const interaction = request.url?.match(/^\/interaction\/([\w-]+)$/);
    if (!interaction) {
      handleProtocol(request, response);
      return;
    }
    interact(provider, options.accounts, request, response).catch((error: unknown) => {
      response.statusCode = 500;
      response.end(String(error));
    });
  });

  return {
    issuer,
    close: () =>
      new Promise((resolve, reject) => {
        if (!server.listening) return resolve();
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

async function configuration(options: TestIdentityProviderOptions): Promise<Configuration> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  return {
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    jwks: { keys: [{ ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig' }] },
    cookies: { keys: ['test identity provider cookie key'] },
    // Set, so that oidc-provider does not print a notice for each default it falls back to.
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 600, IdToken: 600, Interaction: 600, Session: 600 },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'picture'] },
    conformIdTokenClaims: !options.claimsInIdToken,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx, sub) {
      const account = options.accounts[sub];
      if (!account) return undefined;
      return { accountId: sub, claims: () => ({ sub, ...account }) };
    },
  };
}

async function interact(
  provider: Provider,
  accounts: Record<string, TestAccount>,
  request: http.IncomingMessage,
  response: http.ServerResponse,
) {
  const details = await provider.interactionDetails(request, response);
  if (request.method !== 'POST') {
    sendForm(response, details.uid, '');
    return;
  }
  const form = new URLSearchParams(await readBody(request));
  if (form.get('action') === 'deny') {
    await provider.interactionFinished(request, response, {
      error: 'access_denied',
      error_description: 'The user refused to share their account',
    });
    return;
  }
  const accountId = form.get('account') ?? '';
  if (!accounts[accountId]) {
    sendForm(response, details.uid, `No account named ${accountId}`);
    return;
  }
  const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
  grant.addOIDCScope(String(details.params.scope));
  const grantId = await grant.save();
  await provider.interactionFinished(request, response, { login: { accountId }, consent: { grantId } });
}

function sendForm(response: http.ServerResponse, uid: string, problem: string) {
  response.setHeader('content-type', 'text/html; charset=utf-8');
  response.end(`<!doctype html>
<html lang="en"><head><title>Test identity provider</title></head>
<body>
  <h1>Test identity provider</h1>
  ${problem ? `<p role="alert">${escapeText(problem)}</p>` : ''}
  <form method="post" action="/interaction/${uid}">
    <label>Account <input name="account" autocomplete="off"></label>
    <button name="action" value="allow">Sign in</button>
    <button name="action" value="deny">Deny</button>
  </form>
</body></html>`);
}

async function readBody(request: http.IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of request) body += String(chunk);
  return body;
}

/**
 * Plays the browser at the provider: follows its redirects from `authorizationUrl`, answers its
 * interaction page as `account` (or denies), and returns the URL it finally sends the browser to.
 */
export async function answerAtProvider(
  authorizationUrl: string,
  { account, action = 'allow' }: { account: string; action?: 'allow' | 'deny' },
): Promise<URL> {
  const issuerOrigin = new URL(authorizationUrl).origin;
  const cookies = new Map<string, string>();
  let url = new URL(authorizationUrl);
  let form: URLSearchParams | undefined;
  for (let hops = 0; hops < 10; hops += 1) {
    if (url.origin !== issuerOrigin) return url;
    const response = await fetch(url, {
      method: form ? 'POST' : 'GET',
      body: form,
      redirect: 'manual',
      headers: { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const split = pair.indexOf('=');
      cookies.set(pair.slice(0, split), pair.slice(split + 1));
    }
    await response.body?.cancel();
    const location = response.headers.get('location');
    if (location) {
      url = new URL(location, url);
      form = undefined;
    } else if (response.status === 200 && !form) {
      form = new URLSearchParams({ account, action });
    } else {
      throw new Error(`the provider answered ${response.status} at ${url.href}`);
    }
  }
  throw new Error('the provider redirected too many times');
}
