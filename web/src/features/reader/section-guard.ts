/**
 * What an EPUB's own HTML may do inside the reader (issue 38, docs/decisions/0040): nothing but
 * show itself. Its documents run in iframes of the app's origin (foliate-js serves them as `blob:`
 * URLs, and needs `allow-same-origin` to lay them out), so three layers keep a hostile book in:
 * the reader page's Content Security Policy, which each frame inherits (no script but the app's
 * own files); this policy in each document's head, which allows only the book's own `blob:` and
 * `data:` resources and no script at all; and the elements and attributes that could act or reach
 * out, removed before the document is made.
 */
export const SECTION_POLICY =
  "default-src 'none'; script-src 'none'; style-src blob: 'unsafe-inline'; img-src blob: data:; font-src blob: data:; media-src blob: data:";

const ACTIVE_ELEMENTS = 'script, noscript, iframe, frame, frameset, object, embed, applet, base, form, meta[http-equiv], link:not([rel~="stylesheet"])';
const URL_ATTRIBUTES = ['src', 'href', 'poster', 'data', 'srcset', 'background', 'action', 'formaction', 'xlink:href'];
/** The book's own resources, which foliate-js has made `blob:` URLs, and inline data. */
const OWN_RESOURCE = /^\s*(blob:|data:|#)/i;

const XHTML_NS = 'http://www.w3.org/1999/xhtml';

/** The section's text made safe to show: HTML, XHTML or SVG, as foliate-js hands it over. */
export function guardSection(text: string, type: string): string {
  const parsed = new DOMParser().parseFromString(text, type as DOMParserSupportedType);
  if (parsed.querySelector('parsererror')) return '';
  for (const element of parsed.querySelectorAll(ACTIVE_ELEMENTS)) element.remove();
  for (const element of parsed.querySelectorAll('*')) {
    for (const attribute of [...element.attributes]) {
      const name = attribute.name.toLowerCase();
      if (name.startsWith('on')) element.removeAttribute(attribute.name);
      // A link the reader follows is a click, opened apart (foliate-js); any other URL must be the book's own.
      else if (URL_ATTRIBUTES.includes(name) && !(element.localName === 'a' && !/^\s*javascript:/i.test(attribute.value)) && !OWN_RESOURCE.test(attribute.value)) {
        element.removeAttribute(attribute.name);
      }
    }
  }
  const root = parsed.documentElement;
  if (root.localName === 'html') {
    let head: Element | null = parsed.querySelector('head');
    if (head === null) {
      head = parsed.createElementNS(root.namespaceURI ?? XHTML_NS, 'head');
      root.prepend(head);
    }
    const policy = parsed.createElementNS(root.namespaceURI ?? XHTML_NS, 'meta');
    policy.setAttribute('http-equiv', 'Content-Security-Policy');
    policy.setAttribute('content', SECTION_POLICY);
    head.prepend(policy);
  }
  return type === 'text/html' ? `<!DOCTYPE html>${root.outerHTML}` : new XMLSerializer().serializeToString(parsed);
}

const GUARDED_TYPES = new Set(['application/xhtml+xml', 'text/html', 'image/svg+xml']);

interface SectionData {
  data: unknown;
  type: string;
}

/** Hooks a foliate-js book's loader so that every document it makes is guarded first. */
export function guardBookSections(transformTarget: EventTarget | undefined): void {
  transformTarget?.addEventListener('data', (event) => {
    const detail = (event as CustomEvent<SectionData>).detail;
    if (!GUARDED_TYPES.has(detail.type)) return;
    const type = detail.type;
    detail.data = Promise.resolve(detail.data).then((data) => (typeof data === 'string' ? guardSection(data, type) : ''));
  });
}
