import { decodeHTML } from 'entities/decode';

/** The book card shows this many characters of the comment (docs/behaviour/books.md). */
export const COMMENT_PREVIEW_LENGTH = 200;

/** Comments run to 200,000 characters; a card needs the start only, so it reads a growing prefix. */
const FIRST_READ = 1024;
/** Text that may be cut short at a prefix's end: a half entity, the start of a script's text. */
const CUT_MARGIN = 64;

/**
 * The first characters of a comment as plain text (docs/behaviour/books.md): HTML tags replaced by
 * spaces. The text of scripts and style sheets is not the comment's words, so it goes with its
 * tags; entities are decoded as a browser decodes them (`&copy;` is ©, `&eacute;` é, by the
 * `entities` package's table of HTML's names), and the spaces that tags leave are collapsed into
 * one, so the preview reads as the comment's own words. React shows the result as text, never as HTML.
 */
export function commentPreview(comment: string | null | undefined): string {
  if (!comment) return '';
  for (let length = FIRST_READ; ; length *= 4) {
    const whole = length >= comment.length;
    const text = plainText(whole ? comment : comment.slice(0, length).replace(/<[^>]*$/, ''));
    if (whole || text.length >= COMMENT_PREVIEW_LENGTH + CUT_MARGIN) {
      return Array.from(text.slice(0, 2 * COMMENT_PREVIEW_LENGTH))
        .slice(0, COMMENT_PREVIEW_LENGTH)
        .join('');
    }
  }
}

function plainText(html: string): string {
  const text = html
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<[^>]*>/g, ' ');
  // Decoded once the tags are gone, so that an encoded '&lt;b&gt;' stays words rather than a tag.
  return decodeHTML(text).replace(/\s+/g, ' ').trim();
}
