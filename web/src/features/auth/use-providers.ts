import { useEffect, useState } from 'react';
import type { Providers } from '../../../../contract/auth.ts';
import { errorMessage } from '../../api/api-error.ts';
import { useApiClient } from '../../api/api-client-context.ts';
import { fetchProviders } from './auth.api.ts';

export type ProvidersState =
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'ready'; providers: Providers };

export function useProviders(): ProvidersState {
  const client = useApiClient();
  const [state, setState] = useState<ProvidersState>({ status: 'loading' });

  useEffect(() => {
    const stop = new AbortController();
    fetchProviders(client, stop.signal).then(
      (providers) => setState({ status: 'ready', providers }),
      (error: unknown) => {
        if (!stop.signal.aborted) setState({ status: 'failed', message: errorMessage(error) });
      },
    );
    return () => stop.abort();
  }, [client]);

  return state;
}
