import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { articleEpub, type ArticleForEpub } from './article-epub.ts';

/** A one-pixel PNG. */
const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'organiser-article-epub-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

const article: ArticleForEpub = {
  id: 'b-42',
  title: 'Slow bread & <quick> jam',
  byline: 'Ann Baker',
  site: 'The Kitchen',
  url: 'https://kitchen.example/slow-bread?x=1&y=2',
  language: 'en',
  keptAt: new Date('2026-11-28T10:11:12.345Z'),
  html: [
    '<h2>Flour</h2><p>Mix\u00a0the flour&nbsp;and water\u0007. <a href="javascript:alert(1)">tricky</a> <a href="https://kitchen.example/more">more</a></p>',
    `<figure><img src="data:image/png;base64,${PIXEL.toString('base64')}"><figcaption>The crumb</figcaption></figure>`,
    '<img src="https://tracker.example/pixel.gif" alt="a tracker">',
    '<img src="/kept/3">',
    '<script>alert(1)</script><style>p{}</style><iframe src="https://elsewhere.example"></iframe>',
    '<form action="https://elsewhere.example"><input name="q"><button>Go</button></form>',
    '<p onclick="alert(1)" style="color:red" class="x">Knead <font color="red">ten</font> minutes.<br>Rest.</p>',
    '<table><tr><td colspan="2">cell</td></tr></table><custom-thing>kept text</custom-thing>',
  ].join(''),
};

/** The kept copy's own image by its address, as the archive serves it. */
const imageOf = (src: string) => (src === '/kept/3' ? { type: 'image/png', data: PIXEL } : undefined);

describe('an article as an EPUB (issue 39)', () => {
  const epub = articleEpub(article, imageOf);
  const file = path.join(work, 'article.epub');
  fs.writeFileSync(file, epub);
  const entries = unzipSync(epub);
  const page = strFromU8(entries['OEBPS/article.xhtml']!);

  it('holds the mimetype first, stored, and the article with its images as files of the book', () => {
    // The local file header of the first entry: its name, then its content uncompressed.
    expect(Buffer.from(epub.subarray(30, 38)).toString()).toBe('mimetype');
    expect(Buffer.from(epub.subarray(38, 58)).toString()).toBe('application/epub+zip');
    expect(Object.keys(entries).filter((name) => name.startsWith('OEBPS/images/'))).toEqual(['OEBPS/images/1.png', 'OEBPS/images/2.png']);
    expect(page).toContain('<img src="images/1.png" alt=""/>');
    expect(page).toContain('<img src="images/2.png" alt=""/>');
    expect(page).toContain('<a href="https://kitchen.example/slow-bread?x=1&amp;y=2">');
  });

  it('leaves out scripts, forms, frames, handlers, styles and every remote resource, and keeps the text', () => {
    for (const gone of ['<script', 'alert', '<style', '<iframe', '<form', '<input', '<button', 'onclick', 'style=', 'class=', 'tracker.example/pixel', 'javascript:', 'elsewhere.example', '<font', '<custom-thing'])
      expect(page).not.toContain(gone);
    for (const kept of ['Knead ten minutes.<br/>Rest.', 'a tracker', 'kept text', '<td colspan="2">cell</td>', 'tricky', 'Mix\u00a0the flour\u00a0and water.', 'The crumb'])
      expect(page).toContain(kept);
  });

  it('passes epubcheck', { timeout: 120_000 }, () => {
    // Debian's epubcheck is the jar itself, which runs as a program only where binfmt knows jars.
    const report = path.join(work, 'epubcheck.json');
    execFileSync('java', ['-jar', '/usr/share/java/epubcheck.jar', '--json', report, file], { stdio: ['ignore', 'pipe', 'pipe'] });
    const messages = (JSON.parse(fs.readFileSync(report, 'utf8')) as { messages: Array<{ severity: string; message: string }> }).messages;
    expect(messages.filter((message) => message.severity === 'ERROR' || message.severity === 'FATAL' || message.severity === 'WARNING')).toEqual([]);
  });

  it('is read by calibre as the article, by its writer, with the page as its source', () => {
    const meta = execFileSync('unshare', ['--net', '--map-root-user', 'ebook-meta', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(meta).toMatch(/^Title\s+: Slow bread & <quick> jam$/m);
    expect(meta).toMatch(/^Author\(s\)\s+: Ann Baker$/m);
    expect(meta).toMatch(/^Publisher\s+: The Kitchen$/m);
    expect(meta).toMatch(/^Languages\s+: eng$/m);
  });
});
