import { describe, expect, it } from 'vitest';
import { bookmarkletCode, PAGE_SENT, SEND_PAGE } from './bookmarklet.ts';

type Message = { source: unknown; origin: string; data: unknown };
type Popup = { sent: Array<[unknown, string]>; postMessage(data: unknown, origin: string): void };

/**
 * Runs the bookmarklet's script against a page of this address, title, selection and HTML; the
 * popup's address, the popup, and the page's message listener (what the popup's asking reaches).
 */
function run(code: string, page: { href: string; title: string; selection: string; html?: string }) {
  const opened: string[] = [];
  const popup: Popup = { sent: [], postMessage: (data, origin) => popup.sent.push([data, origin]) };
  const listeners: Array<(event: Message) => void> = [];
  const script = decodeURIComponent(code.slice('javascript:'.length));
  const scope = {
    location: { href: page.href },
    document: { title: page.title, documentElement: { outerHTML: page.html ?? '<html></html>' } },
    getSelection: () => page.selection,
  };
  const window = {
    open: (url: string) => {
      opened.push(url);
      return popup;
    },
    addEventListener: (type: string, listener: (event: Message) => void) => type === 'message' && listeners.push(listener),
  };
  new Function('location', 'document', 'getSelection', 'window', script)(scope.location, scope.document, scope.getSelection, window);
  const message = (event: Message) => listeners.forEach((listener) => listener(event));
  return { opened, popup, message };
}

describe('bookmarklet', () => {
  it('opens the create form of this origin with the page’s address, title and selected text', () => {
    const code = bookmarkletCode('https://organiser.example.org');
    expect(code.startsWith('javascript:')).toBe(true);
    const [opened] = run(code, { href: 'https://news.example.com/a?b=1&c=2#d', title: 'News & more', selection: '  quoted words ' }).opened;
    const url = new URL(opened ?? '');
    expect(url.origin + url.pathname).toBe('https://organiser.example.org/bookmark/create');
    expect(Object.fromEntries(url.searchParams)).toEqual({ url: 'https://news.example.com/a?b=1&c=2#d', title: 'News & more', note: 'quoted words', capture: '1' });
  });

  it('leaves the note out when nothing is selected', () => {
    const [opened] = run(bookmarkletCode('http://localhost:8080'), { href: 'https://example.org/', title: 'Example', selection: '' }).opened;
    expect(new URL(opened ?? '').searchParams.has('note')).toBe(false);
  });

  it('sends the page’s HTML to the form it opened, when that form asks from the app’s origin, and to no one else', () => {
    const origin = 'https://organiser.example.org';
    const { popup, message } = run(bookmarkletCode(origin), { href: 'https://example.org/', title: 'Example', selection: '', html: '<html><p>Members only</p></html>' });
    message({ source: {}, origin, data: SEND_PAGE });
    message({ source: popup, origin: 'https://evil.example', data: SEND_PAGE });
    message({ source: popup, origin, data: 'something else' });
    expect(popup.sent).toEqual([]);
    message({ source: popup, origin, data: SEND_PAGE });
    expect(popup.sent).toEqual([[{ type: PAGE_SENT, html: '<html><p>Members only</p></html>' }, origin]]);
  });
});
