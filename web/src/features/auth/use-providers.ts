import type { Providers } from '../../../../contract/auth.ts';
import { errorMessage } from '../../api/api-error.ts';
import { useProvidersQuery } from './auth.api.ts';

export type ProvidersState =
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'ready'; providers: Providers };

export function useProviders(): ProvidersState {
  const { data, error } = useProvidersQuery();
  if (data !== undefined) return { status: 'ready', providers: data };
  if (error !== undefined) return { status: 'failed', message: errorMessage(error) };
  return { status: 'loading' };
}
