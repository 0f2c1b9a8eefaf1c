import htmlEncodingSniffer from 'html-encoding-sniffer';
import { AppError } from '../errors.ts';

/**
 * The text of a bookmarks file, decoded as a browser would: by its byte order mark, else by its
 * `<meta>` charset (Internet Explorer and Netscape wrote Windows-1252 and ISO-8859-1 files that
 * say so). A file that declares nothing is UTF-8 when its bytes are, else Windows-1252, the legacy
 * encoding that browsers assume for Western locales and old Windows programs wrote undeclared.
 */
export function bookmarkFileText(bytes: Uint8Array): string {
  const declared = htmlEncodingSniffer(bytes, { defaultEncoding: 'UTF-8' });
  const undeclared = declared === 'UTF-8' && htmlEncodingSniffer(bytes, { defaultEncoding: 'windows-1252' }) === 'windows-1252';
  if (undeclared) {
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      return new TextDecoder('windows-1252').decode(bytes);
    }
  }
  try {
    return new TextDecoder(declared).decode(bytes);
  } catch {
    throw new AppError(400, `This bookmarks file is in the encoding ${declared}, which cannot be read: save it as UTF-8`);
  }
}
