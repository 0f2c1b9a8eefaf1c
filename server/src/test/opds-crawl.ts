import type { FastifyInstance } from 'fastify';
import { parseAtomFeed } from 'feedsmith';

/** The links an e-reader fetches from a book's entry: its files, its cover and thumbnail. */
export const OPDS_RESOURCE_RELS = ['http://opds-spec.org/acquisition', 'http://opds-spec.org/image', 'http://opds-spec.org/image/thumbnail'];

export type CrawledEntry = { feed: string; title: string; acquisitions: number };
export type CrawledLink = { rel: string; href: string; status: number };
export type OpdsCrawl = { feeds: string[]; entries: CrawledEntry[]; links: CrawledLink[] };

/** An address of the app as `inject` takes it: its path and query, whatever origin the feed wrote. */
const local = (href: string) => {
  const url = new URL(href, 'http://localhost');
  return `${url.pathname}${url.search}`;
};

/**
 * Reads every feed reachable from `/opds` as a reader browsing it would, every page of each (a
 * link of an Atom type below `/opds`), and fetches each cover, thumbnail and acquisition link
 * once, keeping its status. Each book entry of an acquisition feed is kept with its count of
 * acquisition links.
 */
export async function crawlOpds(app: FastifyInstance, headers: Record<string, string>): Promise<OpdsCrawl> {
  const queue = ['/opds'];
  const seen = new Set(queue);
  const fetched = new Map<string, CrawledLink>();
  const crawl: OpdsCrawl = { feeds: [], entries: [], links: [] };
  const follow = (links: Array<{ href?: string; type?: string }> | undefined) => {
    for (const link of links ?? []) {
      if (!link.href || !link.type?.startsWith('application/atom+xml')) continue;
      const address = local(link.href);
      if (address.startsWith('/opds') && !seen.has(address)) {
        seen.add(address);
        queue.push(address);
      }
    }
  };
  for (let address = queue.shift(); address !== undefined; address = queue.shift()) {
    const response = await app.inject({ url: address, headers });
    if (response.statusCode !== 200) throw new Error(`${address} answered ${response.statusCode}: ${response.body}`);
    crawl.feeds.push(address);
    const feed = parseAtomFeed(response.body);
    follow(feed.links);
    const acquisition = feed.links?.find((link) => link.rel === 'self')?.type?.includes('kind=acquisition') ?? false;
    for (const entry of feed.entries ?? []) {
      follow(entry.links);
      const resources = (entry.links ?? []).filter((link) => link.href && OPDS_RESOURCE_RELS.includes(link.rel ?? ''));
      if (acquisition) {
        const acquisitions = resources.filter((link) => link.rel === OPDS_RESOURCE_RELS[0]).length;
        crawl.entries.push({ feed: address, title: entry.title?.value ?? '', acquisitions });
      }
      for (const link of resources) {
        const target = local(link.href!);
        if (fetched.has(target)) continue;
        const answer = await app.inject({ url: target, headers });
        fetched.set(target, { rel: link.rel!, href: target, status: answer.statusCode });
      }
    }
  }
  crawl.links = [...fetched.values()];
  return crawl;
}
