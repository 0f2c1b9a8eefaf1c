import { escapeUTF8 } from 'entities';

/**
 * The reader's policy, sent as the reply's header and written into the document too, so that it
 * holds wherever the client puts the document (a frame's srcdoc keeps only what it carries): no
 * script, no request to anywhere but the app's own style sheet, images from data: URLs only, no
 * form, no base. The header adds what only a header can: the sandbox, and framing by the app alone.
 */
export const READER_DOCUMENT_POLICY = "default-src 'none'; img-src data:; style-src 'self'; form-action 'none'; base-uri 'none'";
export const READER_POLICY = `${READER_DOCUMENT_POLICY}; frame-ancestors 'self'; sandbox allow-same-origin allow-popups allow-popups-to-escape-sandbox`;

/** The app's style sheet for kept pages (web/public/reader-view.css): light and dark, the size the reader sets. */
const STYLE_SHEET = '/reader-view.css';

export type ReaderParts = { title: string; byline: string | null; siteName: string | null; link: string; html: string };

/** The kept copy as the reader shows it: its sanitised article under a head of its own. */
export function readerDocument({ title, byline, siteName, link, html }: ReaderParts): string {
  const from = [byline, siteName].filter(Boolean).map((part) => escapeUTF8(part ?? '')).join(' · ');
  return [
    '<!doctype html>',
    '<html><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${READER_DOCUMENT_POLICY}">`,
    '<meta name="referrer" content="no-referrer">',
    `<title>${escapeUTF8(title)}</title>`,
    `<link rel="stylesheet" href="${STYLE_SHEET}">`,
    '</head><body><main class="kept-page">',
    `<header><h1>${escapeUTF8(title)}</h1>`,
    from ? `<p class="kept-byline">${from}</p>` : '',
    `<p class="kept-source"><a href="${escapeUTF8(link)}" target="_blank" rel="noopener noreferrer">${escapeUTF8(link)}</a></p></header>`,
    `<article>${html}</article>`,
    '</main></body></html>',
  ].join('\n');
}
