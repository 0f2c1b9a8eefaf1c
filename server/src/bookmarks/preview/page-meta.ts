import htmlEncodingSniffer from 'html-encoding-sniffer';
import { Parser } from 'htmlparser2';

export type PageMeta = { title: string; description: string };

const squeeze = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * The page's title and description as a link preview shows them: Open Graph's `og:title` and
 * `og:description` (written for exactly this), else `<title>` and `<meta name="description">`.
 * Only the head is read: the parser stops at `<body>`.
 */
export function readPageMeta(html: string): PageMeta {
  let title = '';
  let inTitle = false;
  const meta = new Map<string, string>();
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === 'body') parser.pause();
        if (name === 'title' && title === '') inTitle = true;
        if (name !== 'meta' || attributes.content === undefined) return;
        const key = (attributes.property ?? attributes.name ?? '').toLowerCase();
        if (key !== '' && !meta.has(key)) meta.set(key, attributes.content);
      },
      ontext(text) {
        if (inTitle) title += text;
      },
      onclosetag(name) {
        if (name === 'title') inTitle = false;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  return {
    title: squeeze(meta.get('og:title') || title),
    description: squeeze(meta.get('og:description') || meta.get('description') || ''),
  };
}

/**
 * The page's bytes as a browser decodes them: a byte order mark, else the charset of the
 * Content-Type header, else a `<meta>` charset in the first 1,024 bytes (read by
 * html-encoding-sniffer). An undeclared page is UTF-8 when its bytes are, else Windows-1252, the
 * HTML standard's default for Western pages.
 */
export function pageText(bytes: Uint8Array, headerCharset: string | undefined): string {
  const options = { transportLayerEncodingLabel: headerCharset };
  const declared = htmlEncodingSniffer(bytes, { ...options, defaultEncoding: 'UTF-8' });
  const undeclared = declared === 'UTF-8' && htmlEncodingSniffer(bytes, { ...options, defaultEncoding: 'windows-1252' }) === 'windows-1252';
  try {
    return new TextDecoder(declared, { fatal: undeclared }).decode(bytes);
  } catch {
    // Undeclared and not UTF-8; or a label TextDecoder does not know, read as the default.
    return new TextDecoder('windows-1252').decode(bytes);
  }
}
