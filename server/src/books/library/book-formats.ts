/**
 * The media type of each format Calibre keeps, by its lower-case extension: the file download
 * and OPDS's acquisition links both name a file's type from here. Calibre's own list
 * (calibre/ebooks/__init__.py's BOOK_EXTENSIONS) and the types e-readers recognise; a format
 * missing here is sent as bytes, which every reader still saves.
 */
const MIME_TYPES: Readonly<Record<string, string>> = {
  azw: 'application/vnd.amazon.ebook',
  azw3: 'application/vnd.amazon.mobi8-ebook',
  azw4: 'application/vnd.amazon.ebook',
  cb7: 'application/x-cb7',
  cbc: 'application/x-cbc',
  cbr: 'application/vnd.comicbook-rar',
  cbz: 'application/vnd.comicbook+zip',
  chm: 'application/vnd.ms-htmlhelp',
  djv: 'image/vnd.djvu',
  djvu: 'image/vnd.djvu',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  epub: 'application/epub+zip',
  fb2: 'application/x-fictionbook+xml',
  fbz: 'application/x-zip-compressed-fb2',
  htm: 'text/html',
  html: 'text/html',
  htmlz: 'application/zip',
  kepub: 'application/kepub+zip',
  lit: 'application/x-ms-reader',
  lrf: 'application/x-sony-bbeb',
  mobi: 'application/x-mobipocket-ebook',
  odt: 'application/vnd.oasis.opendocument.text',
  pdb: 'application/vnd.palm',
  pdf: 'application/pdf',
  prc: 'application/x-mobipocket-ebook',
  rtf: 'application/rtf',
  snb: 'application/octet-stream',
  tcr: 'application/octet-stream',
  txt: 'text/plain; charset=utf-8',
  txtz: 'application/zip',
  zip: 'application/zip',
};

export function mimeTypeOf(format: string): string {
  return MIME_TYPES[format.toLowerCase()] ?? 'application/octet-stream';
}

/** A file's format: its extension in lower case ('' without one). */
export function formatOf(file: string): string {
  const name = file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1);
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
}
