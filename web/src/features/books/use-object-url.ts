import { useEffect, useState } from 'react';
import { useApiClient } from '../../api/api-client-context.ts';
import { fetchObjectUrl } from './library-files.api.ts';

type Loaded = { path: string; url: string | null };

/**
 * A `blob:` URL of what the API answers at `path` (null: nothing to fetch yet), revoked when the
 * path changes or the component goes; null while loading and when the API has nothing (a 404: the
 * file is not on disk), so that the caller shows nothing rather than a broken image.
 */
export function useObjectUrl(path: string | null): string | null {
  const client = useApiClient();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  useEffect(() => {
    if (path === null) return;
    const controller = new AbortController();
    let url: string | null = null;
    fetchObjectUrl(client, path, controller.signal).then(
      (fetched) => {
        url = fetched.url;
        if (controller.signal.aborted) URL.revokeObjectURL(url);
        else setLoaded({ path, url });
      },
      () => {
        if (!controller.signal.aborted) setLoaded({ path, url: null });
      },
    );
    return () => {
      controller.abort();
      if (url !== null) URL.revokeObjectURL(url);
    };
  }, [client, path]);
  return loaded?.path === path ? loaded.url : null;
}
