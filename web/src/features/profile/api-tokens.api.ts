import { ApiTokens, type CreateApiTokenBody, CreatedApiToken } from '../../../../contract/api-tokens.ts';
import type { HttpClient } from '../../api/http-client.ts';

export const fetchApiTokens = (client: HttpClient, signal?: AbortSignal) => client.json('/api/users/me/tokens', ApiTokens, { signal });

export const createApiToken = (client: HttpClient, body: CreateApiTokenBody) =>
  client.json('/api/users/me/tokens', CreatedApiToken, { method: 'POST', body });

export const revokeApiToken = (client: HttpClient, id: string) => client.empty(`/api/users/me/tokens/${encodeURIComponent(id)}`, { method: 'DELETE' });
