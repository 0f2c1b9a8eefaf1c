import { AuthReply, type RegisterBody } from '../../../contract/auth.ts';

/** `POST /auth/register` on a running server (server-process.ts), its reply as it came. */
export const register = (baseUrl: string, body: RegisterBody) =>
  fetch(`${baseUrl}/auth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/**
 * A new account on a running server, signed in: the first needs no invitation. A refused sign-up
 * throws with the reply, so that a test fails with the server's reason.
 */
export async function signUp(baseUrl: string, account: Pick<RegisterBody, 'email'> & Partial<RegisterBody>): Promise<AuthReply> {
  const reply = await register(baseUrl, { password: 'a long enough password', displayName: 'Owner', ...account });
  if (reply.status !== 200) throw new Error(`sign-up refused: ${reply.status} ${await reply.text()}`);
  return AuthReply.parse(await reply.json());
}
