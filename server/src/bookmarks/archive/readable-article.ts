/** What Readability finds of a page: its article as HTML (not yet sanitised), and who wrote it where. */
export type ReadableArticle = { title: string; byline: string; siteName: string; html: string };

const squeeze = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();

/**
 * The readable article of a page, found by Mozilla's Readability (Firefox's reader view) on
 * linkedom's DOM (docs/decisions/0041-kept-pages.md: about ten times as fast as jsdom on a
 * 200 KB page). Both are loaded at the first page kept: a server that keeps none never holds
 * them. A page Readability finds no article in is kept whole (its body), sanitised as any other.
 */
export async function readableArticle(page: string): Promise<ReadableArticle> {
  const [{ parseHTML }, { Readability }] = await Promise.all([import('linkedom'), import('@mozilla/readability')]);
  const { document } = parseHTML(page);
  const title = squeeze(document.title);
  const body = document.body?.innerHTML ?? '';
  // Readability takes the document apart as it reads: the body is taken first.
  const article = new Readability(document as unknown as ConstructorParameters<typeof Readability>[0], { keepClasses: false }).parse();
  if (!article?.content) return { title, byline: '', siteName: '', html: body };
  return { title: squeeze(article.title) || title, byline: squeeze(article.byline), siteName: squeeze(article.siteName), html: article.content };
}
