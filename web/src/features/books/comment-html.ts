/**
 * An opening tag whose quoted values hold no '<' or '>'. Neither a quote nor '<' may appear
 * unquoted, so the scan from one '<' stops at the next, and the whole pass stays linear on any input.
 */
const OPENING_TAG = /<[a-z][^<>"']*(?:(?:"[^"<>]*"|'[^<>']*')[^<>"']*)*>/gi;
/** Quoted values are matched first and kept whole, so that text inside them is never taken for an attribute. */
const HANDLER_ATTRIBUTE = /("[^"]*"|'[^']*')|(?<=[\s/"'])on[^\s/>="']*(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>"']*))?/gi;

/**
 * The HTML without its event handler attributes (`onerror`, `onclick`…). DOMPurify removes them
 * anyway and the CSP would refuse to run them; but Chromium checks the CSP as soon as the parser
 * meets one, even in DOMPurify's detached document, and reports each as a console error. Taking
 * them out first keeps the console quiet. A tag this pass cannot read keeps its attributes for
 * DOMPurify to remove.
 */
export function withoutEventHandlers(html: string): string {
  return html.replace(OPENING_TAG, (tag) => tag.replace(HANDLER_ATTRIBUTE, (_match, quoted?: string) => quoted ?? ''));
}
