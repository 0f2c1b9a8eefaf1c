import { useCallback, useEffect, useRef } from 'react';
import { runChange, useApiDispatch, type ApiDispatch } from '../../api/api.ts';
import { readerApi } from './reader.api.ts';
import type { ReaderLocation } from './reader-types.ts';

/** A move is saved this long after it, with the moves made meanwhile: a burst of turns is one save. */
const SAVE_AFTER_MS = 1500;

/** What the position was saved on, shown beside it: "Web reader on Linux". */
function deviceName(): string {
  const platform = (navigator as Navigator & { userAgentData?: { platform?: string } }).userAgentData?.platform || navigator.platform || 'the web';
  return `Web reader on ${platform}`.slice(0, 200);
}

/**
 * Saves where the reader is as the pages turn (at most every 1.5 s), and once more as the tab is hidden or
 * closed: that last save is a `keepalive` fetch through the HTTP client, which outlives the page
 * and, unlike a beacon, carries the bearer header.
 */
export function usePositionSaver(bookId: string): (location: ReaderLocation) => void {
  const calls: ApiDispatch = useApiDispatch();
  const pending = useRef<{ location: ReaderLocation; at: string } | null>(null);

  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const flush = useCallback(
    (keepalive: boolean) => {
      if (timer.current !== null) clearTimeout(timer.current);
      timer.current = null;
      const unsaved = pending.current;
      if (unsaved === null) return;
      pending.current = null;
      const position = { percentage: unsaved.location.percentage, locator: unsaved.location.locator, device: deviceName(), updatedAt: unsaved.at };
      // A save that fails is not retried: the next page turn saves again.
      runChange(calls, readerApi.endpoints.saveReadingPosition.initiate({ bookId, position, keepalive })).catch(() => undefined);
    },
    [calls, bookId],
  );

  useEffect(() => {
    const hidden = () => document.visibilityState === 'hidden' && flush(true);
    const leaving = () => flush(true);
    document.addEventListener('visibilitychange', hidden);
    window.addEventListener('pagehide', leaving);
    return () => {
      document.removeEventListener('visibilitychange', hidden);
      window.removeEventListener('pagehide', leaving);
      // Leaving the reader within the app saves too.
      flush(false);
    };
  }, [flush]);

  return useCallback(
    (location: ReaderLocation) => {
      pending.current = { location, at: new Date().toISOString() };
      timer.current ??= setTimeout(() => flush(false), SAVE_AFTER_MS);
    },
    [flush],
  );
}
