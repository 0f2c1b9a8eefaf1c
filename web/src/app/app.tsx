import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router/dom';
import { ApiClientContext } from '../api/api-client-context.ts';
import type { HttpClient } from '../api/http-client.ts';
import { router } from './router.tsx';
import type { AppStore } from './store.ts';

export function App({ store, client }: { store: AppStore; client: HttpClient }) {
  return (
    <Provider store={store}>
      <ApiClientContext value={client}>
        <RouterProvider router={router} />
      </ApiClientContext>
    </Provider>
  );
}
