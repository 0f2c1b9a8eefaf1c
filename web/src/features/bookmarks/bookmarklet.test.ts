import { describe, expect, it } from 'vitest';
import { bookmarkletCode } from './bookmarklet.ts';

/** Runs the bookmarklet's script against a page of this address, title and selection; the popup's address. */
function run(code: string, page: { href: string; title: string; selection: string }): string[] {
  const opened: string[] = [];
  const script = decodeURIComponent(code.slice('javascript:'.length));
  const scope = { location: { href: page.href }, document: { title: page.title }, getSelection: () => page.selection };
  const open = (url: string) => opened.push(url);
  new Function('location', 'document', 'getSelection', 'window', script)(scope.location, scope.document, scope.getSelection, { open });
  return opened;
}

describe('bookmarklet', () => {
  it('opens the create form of this origin with the page’s address, title and selected text', () => {
    const code = bookmarkletCode('https://organiser.example.org');
    expect(code.startsWith('javascript:')).toBe(true);
    const [opened] = run(code, { href: 'https://news.example.com/a?b=1&c=2#d', title: 'News & more', selection: '  quoted words ' });
    const url = new URL(opened ?? '');
    expect(url.origin + url.pathname).toBe('https://organiser.example.org/bookmark/create');
    expect(Object.fromEntries(url.searchParams)).toEqual({ url: 'https://news.example.com/a?b=1&c=2#d', title: 'News & more', note: 'quoted words' });
  });

  it('leaves the note out when nothing is selected', () => {
    const [opened] = run(bookmarkletCode('http://localhost:8080'), { href: 'https://example.org/', title: 'Example', selection: '' });
    expect(new URL(opened ?? '').searchParams.has('note')).toBe(false);
  });
});
