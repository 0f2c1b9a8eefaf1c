import { createContext, use } from 'react';
import type { HttpClient } from './http-client.ts';

export const ApiClientContext = createContext<HttpClient | null>(null);

export function useApiClient(): HttpClient {
  const client = use(ApiClientContext);
  if (client === null) throw new Error('useApiClient must be used inside an ApiClientContext provider');
  return client;
}
