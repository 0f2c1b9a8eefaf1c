import { zipSync, strToU8 } from 'fflate';
import { type ChildNode, type Element, isTag, isText } from 'domhandler';
import { escapeUTF8 } from 'entities';
import { parseDocument } from 'htmlparser2';

/** A kept article as its EPUB tells it: the kept copy's sanitised HTML, what it is, where it came from. */
export type ArticleForEpub = {
  /** The bookmark's id: the book's identifier is made from it, so a reader that gets it twice knows it. */
  id: string;
  title: string;
  byline: string | null;
  site: string | null;
  url: string;
  /** BCP 47, when the page said; `en` otherwise. */
  language: string | null;
  /** When the copy was kept: the book's last modification. */
  keptAt: Date;
  html: string;
};

/** An image of the article by its `src`: a `data:` URL is read here, anything else is asked of the copy's own images. */
export type ArticleImage = { type: string; data: Uint8Array };
export type ImageOf = (src: string) => ArticleImage | undefined;

/**
 * Elements an EPUB 3 content document may hold that an article uses; any other is left out with
 * its text kept (a `<font>`, a custom element), or left out whole where its content is no text to
 * read (DROPPED). epubcheck holds content documents to XHTML5: an attribute or element of HTML
 * that XHTML does not know fails it, so the article's markup is rebuilt from these alone.
 */
const KEPT = new Set(
  'a abbr article aside b blockquote br caption cite code dd del dfn div dl dt em figcaption figure h1 h2 h3 h4 h5 h6 hr i img ins kbd li mark ol p pre q s samp section small span strong sub sup table tbody td tfoot th thead time tr u ul var'.split(' '),
);
const DROPPED = new Set('script style noscript iframe frame frameset object embed form input button select textarea template svg math canvas audio video source track head title link meta base'.split(' '));
const ATTRIBUTES: Record<string, string[]> = { a: ['href', 'title'], img: ['alt', 'title'], td: ['colspan', 'rowspan'], th: ['colspan', 'rowspan'], time: ['datetime'], abbr: ['title'], q: ['cite'], ol: ['start'] };
const IMAGE_TYPES: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/gif': 'gif', 'image/webp': 'webp', 'image/svg+xml': 'svg' };
const LINKS = /^(https?:|mailto:)/i;
// eslint-disable-next-line no-control-regex -- the characters XML 1.0 does not allow, which a page's text may hold
const NOT_IN_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/** Text or an attribute's value as XML takes it: `&<>"'` escaped, what XML does not allow left out (HTML's `&nbsp;` is no XML entity). */
const xml = (text: string) => escapeUTF8(text.replace(NOT_IN_XML, ''));

function dataUrlImage(src: string): ArticleImage | undefined {
  const match = /^data:([\w/+.-]+)(;base64)?,(.*)$/s.exec(src);
  if (!match) return undefined;
  const [, type, base64, body] = match;
  return { type: type!.toLowerCase(), data: base64 ? Buffer.from(body!, 'base64') : Buffer.from(decodeURIComponent(body!)) };
}

/** The article's markup as XHTML of the kept elements, its images gathered as files of the book. */
function contentOf(html: string, imageOf: ImageOf): { xhtml: string; images: Array<{ name: string } & ArticleImage> } {
  const images: Array<{ name: string } & ArticleImage> = [];
  const named = new Map<string, string>();
  const imageName = (src: string): string | undefined => {
    const known = named.get(src);
    if (known) return known;
    const image = src.startsWith('data:') ? dataUrlImage(src) : imageOf(src);
    const extension = image && IMAGE_TYPES[image.type];
    if (!image || !extension) return undefined;
    const name = `images/${images.length + 1}.${extension}`;
    images.push({ name, ...image });
    named.set(src, name);
    return name;
  };

  const write = (nodes: ChildNode[]): string =>
    nodes
      .map((node) => {
        if (isText(node)) return xml(node.data);
        if (!isTag(node)) return '';
        const element = node as Element;
        const name = element.name.toLowerCase();
        if (DROPPED.has(name)) return '';
        if (!KEPT.has(name)) return write(element.children);
        const attributes = (ATTRIBUTES[name] ?? [])
          .filter((attribute) => element.attribs[attribute] !== undefined)
          .filter((attribute) => attribute !== 'href' || LINKS.test(element.attribs.href!.trim()))
          .map((attribute) => ` ${attribute}="${xml(element.attribs[attribute]!)}"`);
        if (name === 'img') {
          const image = imageName(element.attribs.src ?? '');
          if (!image) return element.attribs.alt ? xml(element.attribs.alt) : '';
          if (element.attribs.alt === undefined) attributes.push(' alt=""');
          return `<img src="${image}"${attributes.join('')}/>`;
        }
        if (name === 'br' || name === 'hr') return `<${name}/>`;
        return `<${name}${attributes.join('')}>${write(element.children)}</${name}>`;
      })
      .join('');

  return { xhtml: write(parseDocument(html).children), images };
}


/**
 * An EPUB 3 of one kept article (issue 39: unread articles to the e-reader): its title, byline and
 * site, the article with its images, and the link back to the page. Made in memory on each request:
 * an article is tens of kilobytes, its images within the copy's cap.
 */
export function articleEpub(article: ArticleForEpub, imageOf: ImageOf = () => undefined): Uint8Array {
  const { xhtml, images } = contentOf(article.html, imageOf);
  const language = article.language?.trim() || 'en';
  const identifier = `urn:organiser:bookmark:${article.id}`;
  const modified = article.keptAt.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const about = [article.byline, article.site].filter((part): part is string => Boolean(part?.trim()));

  const page = `<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="${xml(language)}" lang="${xml(language)}">
<head><meta charset="utf-8"/><title>${xml(article.title)}</title></head>
<body>
<section epub:type="chapter">
<h1>${xml(article.title)}</h1>
${about.length > 0 ? `<p>${xml(about.join(' · '))}</p>\n` : ''}<div>${xhtml}</div>
<p><a href="${xml(article.url)}">${xml(article.url)}</a></p>
</section>
</body>
</html>
`;
  const nav = `<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="${xml(language)}">
<head><meta charset="utf-8"/><title>${xml(article.title)}</title></head>
<body><nav epub:type="toc"><ol><li><a href="article.xhtml">${xml(article.title)}</a></li></ol></nav></body>
</html>
`;
  const opf = `<?xml version="1.0" encoding="utf-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id" xml:lang="${xml(language)}">
<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
<dc:identifier id="id">${xml(identifier)}</dc:identifier>
<dc:title>${xml(article.title)}</dc:title>
<dc:language>${xml(language)}</dc:language>
${article.byline?.trim() ? `<dc:creator>${xml(article.byline.trim())}</dc:creator>\n` : ''}${article.site?.trim() ? `<dc:publisher>${xml(article.site.trim())}</dc:publisher>\n` : ''}<dc:source>${xml(article.url)}</dc:source>
<meta property="dcterms:modified">${modified}</meta>
</metadata>
<manifest>
<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
<item id="article" href="article.xhtml" media-type="application/xhtml+xml"/>
${images.map((image, at) => `<item id="image-${at + 1}" href="${image.name}" media-type="${image.type}"/>`).join('\n')}
</manifest>
<spine><itemref idref="article"/></spine>
</package>
`;
  const container = `<?xml version="1.0" encoding="utf-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
<rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
</container>
`;
  // The mimetype first and stored, not compressed: how a reader knows the file for an EPUB.
  return zipSync({
    mimetype: [strToU8('application/epub+zip'), { level: 0 }],
    'META-INF/container.xml': strToU8(container),
    'OEBPS/content.opf': strToU8(opf),
    'OEBPS/nav.xhtml': strToU8(nav),
    'OEBPS/article.xhtml': strToU8(page),
    ...Object.fromEntries(images.map((image) => [`OEBPS/${image.name}`, [image.data, { level: 0 }] as [Uint8Array, { level: 0 }]])),
  });
}
