import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router/dom';
import { ApiStoreContext } from '../api/api.ts';
import type { ApiStore } from '../api/api-store.ts';
import { BookSlotsProvider } from './book-slots.tsx';
import { router } from './router.tsx';
import type { AppStore } from './store.ts';

export function App({ store, apiStore }: { store: AppStore; apiStore: ApiStore }) {
  return (
    <Provider store={store}>
      <Provider store={apiStore} context={ApiStoreContext}>
        <BookSlotsProvider>
          <RouterProvider router={router} />
        </BookSlotsProvider>
      </Provider>
    </Provider>
  );
}
