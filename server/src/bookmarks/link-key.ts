/**
 * The form two links are compared in to tell that a bookmark is already saved: the WHATWG URL
 * serialisation, which lower-cases the scheme and host, drops a default port (80 for http, 443 for
 * https) and writes an empty path as "/". The fragment stays: on many sites it names the page
 * (`#/inbox`). A link that does not parse is compared as written.
 */
export function linkKey(link: string): string {
  return URL.canParse(link) ? new URL(link).href : link;
}
