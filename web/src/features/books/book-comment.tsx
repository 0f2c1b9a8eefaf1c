import DOMPurify from 'dompurify';
import { useMemo } from 'react';
import { withoutEventHandlers } from './comment-html.ts';

/**
 * Calibre comments are HTML from whoever made the book file: scripts, handlers and `javascript:`
 * links go (DOMPurify's defaults). Inline styles go too, since the CSP would refuse each one with
 * a console error; forms would post somewhere; an image with a relative or plain-http address
 * points at nothing this app serves.
 */
const purify = DOMPurify();
purify.addHook('afterSanitizeAttributes', (node) => {
  if (node instanceof HTMLAnchorElement && node.hasAttribute('href')) {
    node.target = '_blank';
    node.rel = 'noopener noreferrer nofollow';
  }
  if (node instanceof HTMLImageElement && !/^(https:|data:image\/)/i.test(node.getAttribute('src') ?? '')) {
    node.remove();
  }
});

const SANITIZE_OPTIONS = {
  FORBID_TAGS: ['style', 'form', 'input', 'button', 'select', 'textarea'],
  FORBID_ATTR: ['style'],
  ALLOW_DATA_ATTR: false,
};

/** Book detail (docs/behaviour/books.md): the comment rendered as HTML in a bordered box. */
export function BookComment({ html }: { html: string }) {
  const safe = useMemo(() => purify.sanitize(withoutEventHandlers(html), SANITIZE_OPTIONS), [html]);
  return <div className="border rounded p-3 book-comment" dangerouslySetInnerHTML={{ __html: safe }} />;
}
