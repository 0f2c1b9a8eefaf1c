import { beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../errors.ts';
import { html, type PageServer, redirect, startPageServer } from '../../test/page-server.ts';
import { createPagePreview, PREVIEW_LIMITS } from './page-preview.ts';
import { isPublicAddress } from './public-address.ts';

/** The 5 seconds cut short, so that a page that never answers fails the test quickly. */
const LIMITS = { ...PREVIEW_LIMITS, timeoutMs: 1500 };

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error: unknown = await promise.then(
    () => new Error('the page was read'),
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).statusCode).toBe(422);
  return (error as AppError).message;
}

describe('page preview', () => {
  let local: PageServer;
  /** The "public" server: 127.0.0.2, which the tests let through while 127.0.0.1 and the rest stay refused. */
  let outside: PageServer;
  const asOnTheInternet = createPagePreview({ mayVisit: (address) => address === '127.0.0.2' || isPublicAddress(address), limits: LIMITS });
  const everywhere = createPagePreview({ mayVisit: () => true, limits: LIMITS });
  const guarded = createPagePreview({ limits: LIMITS });

  beforeAll(async () => {
    local = await startPageServer({ '/': html('<title>Inside</title>') });
    const hops = (n: number) => (n === 0 ? '/described' : `/hops/${n}`);
    outside = await startPageServer(
      {
        '/described': html(
          '<html><head><title>\n  Tea &amp; biscuits </title><meta name="description" content="How to make  a proper cup"></head><body><p>text</p></body></html>',
        ),
        '/open-graph': html(
          '<head><title>Site title</title><meta property="og:title" content="The article"><meta property="og:description" content="Its summary"><meta name="description" content="Site summary"></head>',
        ),
        '/latin-1-by-header': html(Buffer.from('<title>Caf\xe9 cr\xe8me</title>', 'latin1'), 'text/html; charset=ISO-8859-1'),
        '/windows-1252-by-meta': html(Buffer.from('<meta charset="windows-1252"><title>\x93Quoted\x94</title>', 'latin1'), 'text/html'),
        '/utf-8-undeclared': html(Buffer.from('<title>Grüße</title>', 'utf8'), 'text/html'),
        '/xhtml': html('<title>Strict</title>', 'application/xhtml+xml'),
        '/untitled': html('<p>nothing in the head</p>'),
        '/hops/1': redirect(hops(0)),
        '/hops/2': redirect(hops(1), 301),
        '/hops/3': redirect(hops(2), 307),
        '/hops/4': redirect(hops(3), 308),
        '/to-loopback': redirect(`${local.origin}/`),
        '/to-localhost': redirect(local.origin.replace('127.0.0.1', 'localhost')),
        '/to-metadata': redirect('http://169.254.169.254/latest/meta-data/'),
        '/to-file': redirect('file:///etc/passwd'),
        '/image': html(Buffer.from([0x89, 0x50, 0x4e, 0x47]), 'image/png'),
        '/declared-too-big': (_request, response) => {
          response.writeHead(200, { 'content-type': 'text/html', 'content-length': String(2 * 1024 * 1024) });
          response.write('<title>Big</title>');
        },
        // Never ends: the preview stops reading after 1 MB, or it would run into its time limit.
        '/endless': (_request, response) => {
          response.writeHead(200, { 'content-type': 'text/html' });
          response.write('<html><head><title>Endless</title></head><body>');
          const more = () => {
            while (!response.destroyed && response.write('<p>and more</p>'.repeat(1000)));
            if (!response.destroyed) response.once('drain', more);
          };
          more();
        },
        '/silent': () => {},
        '/stalls-after-headers': (_request, response) => {
          response.writeHead(200, { 'content-type': 'text/html' });
          response.write('<title>Stalled');
        },
        '/missing': (_request, response) => response.writeHead(404, { 'content-type': 'text/html' }).end('<title>Nope</title>'),
      },
      '127.0.0.2',
    );
    return async () => {
      await local.close();
      await outside.close();
    };
  });

  describe('reads', () => {
    it('the title and the meta description, spaces squeezed and entities decoded', async () => {
      expect(await asOnTheInternet.preview(`${outside.origin}/described`)).toEqual({ title: 'Tea & biscuits', description: 'How to make a proper cup' });
    });

    it('Open Graph’s title and description before the page’s own', async () => {
      expect(await asOnTheInternet.preview(`${outside.origin}/open-graph`)).toEqual({ title: 'The article', description: 'Its summary' });
    });

    it.each([
      ['/latin-1-by-header', 'Café crème'],
      ['/windows-1252-by-meta', '“Quoted”'],
      ['/utf-8-undeclared', 'Grüße'],
      ['/xhtml', 'Strict'],
    ])('%s in its charset: %s', async (path, title) => {
      expect((await asOnTheInternet.preview(outside.origin + path)).title).toBe(title);
    });

    it('empty texts for a page without them', async () => {
      expect(await asOnTheInternet.preview(`${outside.origin}/untitled`)).toEqual({ title: '', description: '' });
    });

    it('through 3 redirects, each with a relative Location', async () => {
      expect((await asOnTheInternet.preview(`${outside.origin}/hops/3`)).title).toBe('Tea & biscuits');
    });

    it('the first 1 MB of an endless page, and stops there', async () => {
      expect((await asOnTheInternet.preview(`${outside.origin}/endless`)).title).toBe('Endless');
    });

    it('pages on loopback when every address is allowed (PREVIEW_ALLOW_PRIVATE)', async () => {
      expect((await everywhere.preview(`${local.origin}/`)).title).toBe('Inside');
    });
  });

  describe('refuses', () => {
    const privateAddress = 'link: the page is on a private or local address, which the server does not visit';

    it.each([
      ['loopback', () => `${local.origin}/`],
      ['loopback in IPv6', () => local.origin.replace('127.0.0.1', '[::1]')],
      ['IPv4-mapped loopback', () => local.origin.replace('127.0.0.1', '[::ffff:127.0.0.1]')],
      ['loopback written as a number', () => local.origin.replace('127.0.0.1', '2130706433')],
      ['a host name that resolves to loopback', () => local.origin.replace('127.0.0.1', 'localhost')],
      ['the cloud metadata address', () => 'http://169.254.169.254/latest/meta-data/'],
      ['a private range', () => 'http://10.0.0.1/'],
      ['CGNAT', () => 'http://100.64.0.1/'],
      ['the unspecified address', () => 'http://0.0.0.0/'],
      ['IPv6 link-local', () => 'http://[fe80::1]/'],
      ['IPv6 unique local', () => 'http://[fd00::1]/'],
    ])('%s', async (_what, link) => {
      expect(await refusal(guarded.preview(link()))).toBe(privateAddress);
    });

    it.each([['/to-loopback'], ['/to-localhost'], ['/to-metadata']])('a redirect to a private address: %s', async (path) => {
      expect(await refusal(asOnTheInternet.preview(outside.origin + path))).toBe(privateAddress);
    });

    it.each([['ftp://example.org/file'], ['file:///etc/passwd'], ['javascript:alert(1)']])('a link that is not http(s): %s', async (link) => {
      expect(await refusal(guarded.preview(link))).toBe('link: only http and https pages can be read');
    });

    it('a redirect to a link that is not http(s)', async () => {
      expect(await refusal(asOnTheInternet.preview(`${outside.origin}/to-file`))).toBe('link: only http and https pages can be read');
    });

    it('more than 3 redirects', async () => {
      expect(await refusal(asOnTheInternet.preview(`${outside.origin}/hops/4`))).toBe('link: the page redirects more than 3 times');
    });

    it('what is not HTML', async () => {
      expect(await refusal(asOnTheInternet.preview(`${outside.origin}/image`))).toBe('link: the page is not HTML (it is image/png)');
    });

    it('a page that says it is over 1 MB', async () => {
      expect(await refusal(asOnTheInternet.preview(`${outside.origin}/declared-too-big`))).toBe('link: the page is larger than 1 MB');
    });

    it.each([['/silent'], ['/stalls-after-headers']])('a page that is too slow: %s', async (path) => {
      const started = Date.now();
      expect(await refusal(asOnTheInternet.preview(outside.origin + path))).toBe('link: the page did not answer within 1.5 seconds');
      expect(Date.now() - started).toBeLessThan(LIMITS.timeoutMs + 2000);
    });

    it('an error status', async () => {
      expect(await refusal(asOnTheInternet.preview(`${outside.origin}/missing`))).toBe('link: the page answered 404 Not Found');
    });

    it('a host that does not exist', async () => {
      expect(await refusal(guarded.preview('http://no-such-host.invalid/'))).toBe('link: the host no-such-host.invalid could not be found');
    });
  });
});
