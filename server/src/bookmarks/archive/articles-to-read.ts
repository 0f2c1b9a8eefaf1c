import { notFound } from '../../errors.ts';
import { articleEpub } from './article-epub.ts';
import type { ArchivesStore } from './archives.store.ts';

/** A kept article as an e-reader's feed lists it. */
export type ArticleToRead = {
  bookmarkId: number;
  title: string;
  link: string;
  byline: string | null;
  site: string | null;
  /** The start of its text, for the entry's summary. */
  summary: string;
  keptAt: number;
};

/** A byline as a writer's name: pages write "By Ada Writer", which an e-reader would file under "By". */
const writerOf = (byline: string | null) => byline?.replace(/^\s*by\s+/i, '').trim() || null;

/** Characters of an article's text that its feed entry shows. */
const SUMMARY_LENGTH = 300;

/**
 * The owner's kept articles for an e-reader (issue 39): the copies there are still to read, newest
 * first, and each as an EPUB made on request from the kept copy. The store checks the owner in
 * each statement.
 */
export function createArticlesToRead(store: Pick<ArchivesStore, 'unreadPage' | 'reader'>) {
  return {
    async page(ownerId: string, from: number, size: number): Promise<{ total: number; articles: ArticleToRead[] }> {
      const { total, rows } = await store.unreadPage(ownerId, from, size, SUMMARY_LENGTH);
      return {
        total,
        articles: rows.map((row) => ({
          bookmarkId: Number(row.bookmark_id),
          title: row.title?.trim() || row.bookmark_title,
          link: row.link,
          byline: writerOf(row.byline),
          site: row.site_name,
          summary: (row.summary ?? '').replace(/\s+/g, ' ').trim(),
          keptAt: Number(row.kept_at ?? row.attempted_at),
        })),
      };
    },

    /** The kept copy as an EPUB, read or not; a 404 when the bookmark is not the owner's or has no copy. */
    async epub(ownerId: string, bookmarkId: number): Promise<{ title: string; epub: Uint8Array }> {
      const row = await store.reader(ownerId, bookmarkId);
      if (!row) throw notFound('Article');
      const title = row.title?.trim() || row.bookmark_title;
      const epub = articleEpub({
        id: String(bookmarkId),
        title,
        byline: writerOf(row.byline),
        site: row.site_name,
        url: row.link,
        language: null,
        keptAt: new Date(Number(row.kept_at ?? row.attempted_at)),
        html: row.html!,
      });
      return { title, epub };
    },
  };
}
export type ArticlesToRead = ReturnType<typeof createArticlesToRead>;
