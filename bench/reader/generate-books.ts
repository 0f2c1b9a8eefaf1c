import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import PDFDocument from 'pdfkit';
import sharp from 'sharp';

/** The books: "a 5 MB EPUB", "a 50 MB PDF". */
export const EPUB_BYTES = 5_000_000;
export const PDF_BYTES = 50_000_000;

const PARAGRAPH =
  'The road went on past the mill and the river, and the walker counted the stones of the wall as the light went down behind the hills, one after another, until the village showed.';

/** A photograph's worth of bytes: noise, which JPEG cannot shrink, as a scan or a picture would not shrink either. */
async function noiseJpeg(width: number, height: number): Promise<Buffer> {
  return sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 70 })
    .toBuffer();
}

/**
 * An EPUB of EPUB_BYTES or a little more, made as a Calibre library's books are: calibre's
 * ebook-convert from one HTML file of chapters, each a picture and some pages of text. Without the
 * cover calibre would draw, the first page is the first chapter's heading, picture and text, so
 * that the bench sees it shown by its text. calibre runs without the network.
 */
export async function makeEpub(work: string, file: string): Promise<void> {
  const source = path.join(work, 'epub-source');
  fs.mkdirSync(source, { recursive: true });
  const chapters: string[] = [];
  let bytes = 0;
  for (let chapter = 1; bytes < EPUB_BYTES; chapter += 1) {
    const picture = await noiseJpeg(480, 360);
    fs.writeFileSync(path.join(source, `picture-${chapter}.jpg`), picture);
    const text = Array.from({ length: 20 }, (_, at) => `<p>Chapter ${chapter}, paragraph ${at + 1}. ${PARAGRAPH}</p>`).join('\n');
    chapters.push(`<h1>Chapter ${chapter}</h1>\n<p><img src="picture-${chapter}.jpg" alt="Picture ${chapter}"/></p>\n${text}`);
    bytes += picture.length;
  }
  const html = `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>A Long Walk in Pictures</title></head><body>\n${chapters.join('\n')}\n</body></html>\n`;
  fs.writeFileSync(path.join(source, 'book.html'), html);
  execFileSync(
    'unshare',
    ['-n', 'ebook-convert', path.join(source, 'book.html'), file, '--title', 'A Long Walk in Pictures', '--authors', 'Organiser Bench', '--language', 'eng', '--chapter', '//h:h1', '--level1-toc', '//h:h1', '--no-default-epub-cover'],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, TZ: 'UTC', CALIBRE_CONFIG_DIRECTORY: path.join(work, 'calibre-config'), QT_QPA_PLATFORM: 'offscreen', QTWEBENGINE_DISABLE_SANDBOX: '1' },
    },
  );
}

/**
 * A PDF of PDF_BYTES or a little more, as a scanned book is: every page a picture of its own under
 * a line of text, printed by Chromium, whose PDF writer (Skia's) is the one calibre's ebook-convert
 * prints through (Qt WebEngine). It keeps each JPEG as it is, and balances the page tree, as most
 * PDF writers do.
 */
export async function makePdf(browser: Browser, work: string, file: string): Promise<{ pages: number }> {
  const source = path.join(work, 'pdf-source');
  fs.mkdirSync(source, { recursive: true });
  const sections: string[] = [];
  for (let bytes = 0; bytes < PDF_BYTES; ) {
    const page = sections.length + 1;
    const picture = await noiseJpeg(600, 420);
    fs.writeFileSync(path.join(source, `scan-${page}.jpg`), picture);
    sections.push(`<section style="break-after: page"><h1>Page ${page}</h1><p>${PARAGRAPH}</p><img src="scan-${page}.jpg" alt="" style="width: 100%"></section>`);
    bytes += picture.length;
  }
  fs.writeFileSync(path.join(source, 'book.html'), `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>A Long Walk, Scanned</title></head><body>\n${sections.join('\n')}\n</body></html>\n`);
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`file://${path.join(source, 'book.html')}`);
    await page.pdf({ path: file, format: 'A5' });
  } finally {
    await context.close();
  }
  return { pages: sections.length };
}

/**
 * The same kind of PDF written by PDFKit, which lists every page in one flat /Pages array, each
 * page's dictionary beside its picture. PDF.js checks a document's last page as it opens it, and
 * in a flat tree it can only reach the last page by reading every page's dictionary: one range
 * per page, all over the file. The reader meets such files too; the bench shows what they cost.
 */
export async function makeFlatTreePdf(file: string): Promise<{ pages: number }> {
  const document = new PDFDocument({ size: 'A5', autoFirstPage: false, info: { Title: 'A Long Walk, Scanned' } });
  const written = new Promise<void>((resolve, reject) => {
    const out = fs.createWriteStream(file);
    out.on('finish', resolve).on('error', reject);
    document.pipe(out);
  });
  // A dozen pictures, each embedded again on every page it is on (PDFKit keeps no shared copy of a buffer).
  const pictures = await Promise.all(Array.from({ length: 12 }, () => noiseJpeg(600, 420)));
  let pages = 0;
  for (let bytes = 0; bytes < PDF_BYTES; pages += 1) {
    const picture = pictures[pages % pictures.length]!;
    document.addPage();
    document.fontSize(14).text(`Page ${pages + 1}`, { align: 'center' });
    document.fontSize(10).text(PARAGRAPH);
    document.image(picture, { fit: [340, 240], align: 'center' });
    bytes += picture.length;
  }
  document.end();
  await written;
  return { pages };
}
