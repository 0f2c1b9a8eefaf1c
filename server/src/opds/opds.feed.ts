import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import type { CatalogueBook } from '../../../contract/books.ts';
import { mimeTypeOf } from '../books/library/book-formats.ts';
import { htmlText } from '../search/search-text.ts';
import { authorsOf } from '../books/books.service.ts';
import { OPDS_TYPES, REL } from './opds.vocabulary.ts';

const NAMESPACES = {
  atom: 'http://www.w3.org/2005/Atom',
  dc: 'http://purl.org/dc/terms/',
  opds: 'http://opds-spec.org/2010/catalog',
  openSearch: 'http://a9.com/-/spec/opensearch/1.1/',
};

/** Calibre keeps covers as `cover.jpg`; the cover call serves them as JPEG. */
const COVER_TYPE = 'image/jpeg';
const EPUB_TYPE = 'application/epub+zip';

export type FeedLink = { rel: string; href: string; type: string; title?: string };

/** What every feed has: its id, title and last change (Atom §4.1.1), and its links (self, start, up, paging, search). */
export type FeedHead = { id: string; title: string; updated: Date; links: FeedLink[] };

/** An entry of a navigation feed: a link to another feed. */
export type NavigationEntry = { id: string; title: string; content: string; link: FeedLink; updated: Date };

/** Where a book's cover and files are served (the books routes), for the entries' links. */
export type BookUrls = { cover(bookId: string, size: 'thumb' | 'full'): string; file(bookId: string, format: string): string };

/** A book as its entry shows it: the formats whose files are on disk, and whether its cover is. */
export type FeedBook = { book: CatalogueBook; formats: string[]; cover: boolean };

/** Paging of an acquisition feed, told with OpenSearch's elements as OPDS 1.2 §5.2 suggests. */
export type Paging = { total: number; from: number; size: number };

/**
 * XML characters only: a title with a control character (Calibre keeps whatever it was given) is
 * written without it rather than making the feed unreadable. Everything written goes through the
 * builder, which escapes `<`, `&` and quotes.
 */
function atomDocument(head: FeedHead): { doc: XMLBuilder; feed: XMLBuilder } {
  const doc = create({ version: '1.0', encoding: 'utf-8', invalidCharReplacement: '' });
  const feed = doc.ele(NAMESPACES.atom, 'feed', {
    'xmlns:dc': NAMESPACES.dc,
    'xmlns:opds': NAMESPACES.opds,
    'xmlns:opensearch': NAMESPACES.openSearch,
  });
  feed.ele('id').txt(head.id);
  feed.ele('title').txt(head.title);
  feed.ele('updated').txt(head.updated.toISOString());
  feed.ele('author').ele('name').txt('Organiser');
  for (const link of head.links) feed.ele('link', link);
  return { doc, feed };
}

const finish = (doc: XMLBuilder) => doc.end({ prettyPrint: true });

export function navigationFeed(head: FeedHead, entries: NavigationEntry[]): string {
  const { doc, feed } = atomDocument(head);
  for (const entry of entries) {
    const element = feed.ele('entry');
    element.ele('title').txt(entry.title);
    element.ele('id').txt(entry.id);
    element.ele('updated').txt(entry.updated.toISOString());
    element.ele('content', { type: 'text' }).txt(entry.content);
    element.ele('link', entry.link);
  }
  return finish(doc);
}

/** An entry's id: the book's Calibre uuid when the catalogue has it, else a URN as stable as the book's id. */
const bookEntryId = (book: CatalogueBook) =>
  book.identifiers.uuid ? `urn:uuid:${book.identifiers.uuid}` : `urn:organiser:book:${encodeURIComponent(book.id)}`;

/** Identifiers as Dublin Core URIs where there is a scheme (ISBN), else `type:value` as Calibre writes them. */
const dcIdentifiers = (book: CatalogueBook) =>
  Object.entries(book.identifiers)
    .filter(([type]) => type !== 'uuid')
    .map(([type, value]) => (type === 'isbn' ? `urn:isbn:${value}` : `${type}:${value}`));

/** The text of the comment: Calibre's HTML with its markup, scripts and styles dropped. */
const summaryOf = (comment: string | null | undefined) => (comment ? htmlText(comment).replace(/\s+/g, ' ').trim() : '');

const timeOf = (book: CatalogueBook, fallback: Date) => {
  const time = book.updated ?? book.created;
  const date = time === null ? fallback : new Date(time);
  return Number.isNaN(date.getTime()) ? fallback : date;
};

function bookEntry(feed: XMLBuilder, { book, formats, cover }: FeedBook, urls: BookUrls, fallback: Date) {
  const entry = feed.ele('entry');
  entry.ele('title').txt(book.title);
  entry.ele('id').txt(bookEntryId(book));
  entry.ele('updated').txt(timeOf(book, fallback).toISOString());
  for (const name of authorsOf(book)) entry.ele('author').ele('name').txt(name);
  for (const language of book.languages) entry.ele('dc:language').txt(language);
  for (const identifier of dcIdentifiers(book)) entry.ele('dc:identifier').txt(identifier);
  if (book.publisher) entry.ele('dc:publisher').txt(book.publisher);
  if (book.publish_date) entry.ele('dc:issued').txt(book.publish_date);
  for (const tag of book.tags) entry.ele('category', { term: tag, label: tag });
  const summary = summaryOf(book.comment);
  if (summary) entry.ele('summary', { type: 'text' }).txt(summary);
  if (cover) {
    entry.ele('link', { rel: REL.image, href: urls.cover(book.id, 'full'), type: COVER_TYPE });
    entry.ele('link', { rel: REL.thumbnail, href: urls.cover(book.id, 'thumb'), type: COVER_TYPE });
  }
  for (const format of formats) {
    entry.ele('link', { rel: REL.acquisition, href: urls.file(book.id, format), type: mimeTypeOf(format), title: format.toUpperCase() });
  }
}

/** Feed `updated`: the latest change among its books, or `now` for a feed without any. */
export const latestChange = (books: CatalogueBook[], now: Date) =>
  books.length === 0 ? now : new Date(Math.max(...books.map((book) => timeOf(book, new Date(0)).getTime())));

export function acquisitionFeed(head: FeedHead, books: FeedBook[], urls: BookUrls, paging: Paging): string {
  const { doc, feed } = atomDocument(head);
  feed.ele('opensearch:totalResults').txt(String(paging.total));
  feed.ele('opensearch:startIndex').txt(String(paging.from + 1));
  feed.ele('opensearch:itemsPerPage').txt(String(paging.size));
  for (const book of books) bookEntry(feed, book, urls, head.updated);
  return finish(doc);
}

/** A kept article as its entry shows it (bookmarks/archive/articles-to-read.ts), with where its EPUB is. */
export type FeedArticle = { id: string; title: string; link: string; byline: string | null; site: string | null; summary: string; kept: Date; epub: string };

/** Kept articles as an acquisition feed: each an EPUB, with a link back to its page. */
export function articleFeed(head: FeedHead, articles: FeedArticle[], paging: Paging): string {
  const { doc, feed } = atomDocument(head);
  feed.ele('opensearch:totalResults').txt(String(paging.total));
  feed.ele('opensearch:startIndex').txt(String(paging.from + 1));
  feed.ele('opensearch:itemsPerPage').txt(String(paging.size));
  for (const article of articles) {
    const entry = feed.ele('entry');
    entry.ele('title').txt(article.title);
    entry.ele('id').txt(article.id);
    entry.ele('updated').txt(article.kept.toISOString());
    if (article.byline) entry.ele('author').ele('name').txt(article.byline);
    if (article.site) entry.ele('dc:publisher').txt(article.site);
    if (article.summary) entry.ele('summary', { type: 'text' }).txt(article.summary);
    entry.ele('link', { rel: REL.acquisition, href: article.epub, type: EPUB_TYPE, title: 'EPUB' });
    entry.ele('link', { rel: 'alternate', href: article.link, type: 'text/html', title: 'The page' });
  }
  return finish(doc);
}

/** The OpenSearch 1.1 description a reader fetches to learn how to search (OPDS 1.2 §3). */
export function openSearchDescription(template: string): string {
  const doc = create({ version: '1.0', encoding: 'utf-8' });
  const description = doc.ele(NAMESPACES.openSearch, 'OpenSearchDescription');
  description.ele('ShortName').txt('Organiser');
  description.ele('Description').txt('Search the books by title and author');
  description.ele('InputEncoding').txt('UTF-8');
  description.ele('OutputEncoding').txt('UTF-8');
  description.ele('Url', { type: OPDS_TYPES.acquisition, template });
  return finish(doc);
}
