import { useCallback, useState } from 'react';

/** Runs one request at a time and says whether one is in flight, for the spinner. */
export function useBusy(): [busy: boolean, run: (request: () => Promise<unknown>) => Promise<void>] {
  const [count, setCount] = useState(0);
  const run = useCallback(async (request: () => Promise<unknown>) => {
    setCount((n) => n + 1);
    try {
      await request();
    } finally {
      setCount((n) => n - 1);
    }
  }, []);
  return [count > 0, run];
}
