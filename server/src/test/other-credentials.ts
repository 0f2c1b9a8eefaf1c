import type { FastifyInstance } from 'fastify';
import { CreatedApiToken } from '../../../contract/api-tokens.ts';
import { NewAppPassword } from '../../../contract/app-passwords.ts';
import { CalendarSubscription } from '../../../contract/calendar.ts';
import { bearer } from './test-app.ts';

/**
 * The credentials a signed-in user makes besides sessions: an API token, an app password and a
 * calendar address, one of each; `working` says which of them still open what they open.
 */
export async function makeOtherCredentials(app: FastifyInstance, user: { idToken: string; user: { email: string } }) {
  const made = async (url: string, payload?: object) => {
    const response = await app.inject({ method: 'POST', url, headers: bearer(user.idToken), ...(payload ? { payload } : {}) });
    if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode} ${response.body}`);
    return response.json() as unknown;
  };
  const apiToken = CreatedApiToken.parse(await made('/api/users/me/tokens', { name: 'script', scope: 'write' })).token;
  const appPassword = NewAppPassword.parse(await made('/api/users/me/app-passwords', { name: 'e-reader' })).password;
  const calendar = new URL(CalendarSubscription.parse(await made('/api/users/me/calendar')).url).pathname;
  const basic = `Basic ${Buffer.from(`${user.user.email}:${appPassword}`).toString('base64')}`;
  return {
    async working() {
      const status = async (url: string, headers: Record<string, string> = {}) => (await app.inject({ url, headers })).statusCode;
      return {
        apiToken: (await status('/bookmarks/', bearer(apiToken))) === 200,
        appPassword: (await status('/opds', { authorization: basic })) === 200,
        calendar: (await status(calendar)) === 200,
      };
    },
  };
}
