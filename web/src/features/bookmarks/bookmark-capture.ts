import { useEffect, useState } from 'react';
import { PAGE_SENT, SEND_PAGE } from './bookmarklet.ts';

/**
 * The HTML of the page the bookmarklet was pressed on, when the create form was opened by it
 * (`capture=1`): asked of the window that opened the form, sent only to the origin of the link the
 * form was opened with, and taken only from that window at that origin. Null until it arrives,
 * and for a form opened otherwise.
 */
export function useCapturedPage(asked: boolean, link: string): string | null {
  const [html, setHtml] = useState<string | null>(null);
  useEffect(() => {
    const opener = window.opener as Window | null;
    if (!asked || opener === null || !URL.canParse(link)) return;
    const origin = new URL(link).origin;
    const receive = (event: MessageEvent) => {
      if (event.source !== opener || event.origin !== origin) return;
      const data = event.data as { type?: unknown; html?: unknown } | null;
      if (data?.type === PAGE_SENT && typeof data.html === 'string') setHtml(data.html);
    };
    window.addEventListener('message', receive);
    opener.postMessage(SEND_PAGE, origin);
    return () => window.removeEventListener('message', receive);
  }, [asked, link]);
  return html;
}
