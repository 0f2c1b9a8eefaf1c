import { type RefObject, useEffect, useState } from 'react';

/**
 * Whether the reader has scrolled to the element after the page (the end of the kept copy): the
 * point where reading is finished. Once true it stays true for the page.
 */
export function useReachedEnd(end: RefObject<Element | null>, ready: boolean): boolean {
  const [reached, setReached] = useState(false);
  useEffect(() => {
    const target = end.current;
    if (!ready || reached || !target) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) setReached(true);
    });
    observer.observe(target);
    return () => observer.disconnect();
  }, [end, ready, reached]);
  return reached;
}
