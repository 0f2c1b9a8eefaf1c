import { decodeHTML } from 'entities';
import sanitizeHtml from 'sanitize-html';
import { IMAGE_TYPES } from './image-types.ts';


/** Text, structure, tables, links and images: nothing that runs, submits, embeds or fetches. */
const ALLOWED_TAGS = [
  ...sanitizeHtml.defaults.allowedTags.filter((tag) => tag !== 'style'),
  'img',
  'figure',
  'figcaption',
  'picture',
];

const ALLOWED_ATTRIBUTES = {
  a: ['href', 'title', 'target', 'rel'],
  img: ['src', 'alt', 'title', 'width', 'height'],
  td: ['colspan', 'rowspan'],
  th: ['colspan', 'rowspan', 'scope'],
};

const resolved = (value: string, base: string) => (URL.canParse(value, base) ? new URL(value, base).href : '');

/**
 * The article's HTML made inert, an allow-list (sanitize-html): no script, style, form, frame,
 * object, embed or event attribute; links http(s) and mailto only, opened in a new tab; images
 * with an http(s) address, resolved against the page's, which the caller fetches and writes in as
 * data: URLs (`withImages`); no srcset, no class, no style attribute.
 */
export function sanitisedArticle(html: string, pageUrl: string): { html: string; imageUrls: string[] } {
  const imageUrls = new Set<string>();
  const clean = sanitizeHtml(html, {
    allowedTags: ALLOWED_TAGS,
    allowedAttributes: ALLOWED_ATTRIBUTES,
    allowedSchemes: ['http', 'https', 'mailto'],
    allowedSchemesByTag: { img: ['http', 'https', 'data'] },
    allowProtocolRelative: false,
    transformTags: {
      a: (tagName, attributes) => ({
        tagName,
        attribs: { ...attributes, ...(attributes.href ? { href: resolved(attributes.href, pageUrl) } : {}), target: '_blank', rel: 'noopener noreferrer' },
      }),
      img: (tagName, attributes) => {
        const src = attributes.src?.startsWith('data:') ? attributes.src : resolved(attributes.src ?? '', pageUrl);
        if (src.startsWith('http')) imageUrls.add(src);
        return { tagName, attribs: { ...attributes, src } };
      },
    },
    // Picture's sources are dropped with their srcset; its <img> stays.
    exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
  });
  return { html: clean, imageUrls: [...imageUrls] };
}

/**
 * The sanitised article with each image's address swapped for its data: URL, so the copy reads
 * with no network; an image not kept (not fetched, not an image type above, or a data: URL over
 * `maxImageBytes`, as a capture may hold) is left out.
 */
export function withImages(html: string, images: ReadonlyMap<string, string>, maxImageBytes: number): { html: string; images: number } {
  let kept = 0;
  const keepable = (data: string | undefined) => {
    const type = data?.match(/^data:([^;,]+)[;,]/)?.[1]?.toLowerCase();
    return data !== undefined && type !== undefined && IMAGE_TYPES.has(type) && (data.length * 3) / 4 <= maxImageBytes * 1.05;
  };
  const out = sanitizeHtml(html, {
    allowedTags: ALLOWED_TAGS,
    allowedAttributes: ALLOWED_ATTRIBUTES,
    allowedSchemes: ['http', 'https', 'mailto'],
    allowedSchemesByTag: { img: ['data'] },
    allowProtocolRelative: false,
    transformTags: {
      img: (tagName, attributes) => {
        const src = attributes.src ?? '';
        const data = src.startsWith('data:') ? src : images.get(src);
        if (!keepable(data)) return { tagName, attribs: { ...attributes, src: '' } };
        kept += 1;
        return { tagName, attribs: { ...attributes, src: data ?? '' } };
      },
    },
    exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
  });
  return { html: out, images: kept };
}

/** The article's words as text: one space between words, blocks on lines of their own. */
export function articleText(html: string): string {
  const blocks = sanitizeHtml(html.replace(/<\/(p|div|h[1-6]|li|blockquote|pre|tr|figcaption)>|<br\s*\/?>/gi, '$&\n'), { allowedTags: [], allowedAttributes: {} });
  return decodeHTML(blocks)
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
}
