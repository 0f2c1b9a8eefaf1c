import path from 'node:path';

/**
 * The media type of each format Calibre keeps (its own list, calibre/ebooks/metadata/opf, and
 * IANA's where there is one); a format not listed is served as bytes.
 */
const MIME_TYPES: Record<string, string> = {
  epub: 'application/epub+zip',
  kepub: 'application/kepub+zip',
  pdf: 'application/pdf',
  mobi: 'application/x-mobipocket-ebook',
  prc: 'application/x-mobipocket-ebook',
  azw: 'application/vnd.amazon.ebook',
  azw3: 'application/vnd.amazon.mobi8-ebook',
  kfx: 'application/vnd.amazon.ebook',
  cbz: 'application/vnd.comicbook+zip',
  cbr: 'application/vnd.comicbook-rar',
  cb7: 'application/x-cb7',
  chm: 'application/vnd.ms-htmlhelp',
  djvu: 'image/vnd.djvu',
  fb2: 'application/x-fictionbook+xml',
  lit: 'application/x-ms-reader',
  rtf: 'application/rtf',
  txt: 'text/plain',
  txtz: 'application/x-calibre-txtz',
  htmlz: 'application/x-calibre-htmlz',
  html: 'text/html',
  odt: 'application/vnd.oasis.opendocument.text',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  lrf: 'application/x-sony-bbeb',
  pdb: 'application/vnd.palm',
  zip: 'application/zip',
};

/** The media type of a format (its lower-case file extension: `epub`, `azw3`). */
export function mimeTypeOf(format: string): string {
  return MIME_TYPES[format.toLowerCase()] ?? 'application/octet-stream';
}

/** A book file's format: its extension, lower case, as Calibre names formats; '' without one. */
export const formatOfFile = (file: string) => path.extname(file).slice(1).toLowerCase();
