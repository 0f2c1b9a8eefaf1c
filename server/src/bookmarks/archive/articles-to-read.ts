import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema.ts';
import { notFound } from '../../errors.ts';
import { articleEpub } from './article-epub.ts';

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
 * The owner's kept articles for an e-reader (issue 39): the copies there are to read, newest first,
 * and each as an EPUB made on request from the kept copy. Every statement names the owner.
 */
export function createArticlesToRead(db: Kysely<Database>) {
  /** The owner's bookmarks with a copy to read. */
  const kept = (ownerId: string) =>
    db
      .selectFrom('bookmark_archives as a')
      .innerJoin('bookmarks as b', (join) => join.onRef('b.id', '=', 'a.bookmark_id').onRef('b.owner_id', '=', 'a.owner_id'))
      .where('a.owner_id', '=', ownerId)
      .where('a.html', 'is not', null);

  return {
    /** The unread ones, the last kept first: what is still to read. */
    async page(ownerId: string, from: number, size: number): Promise<{ total: number; articles: ArticleToRead[] }> {
      const unread = () => kept(ownerId).where('b.read_state', '=', 'unread');
      const [count, rows] = await Promise.all([
        unread().select((s) => s.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow(),
        unread()
          .select(['a.bookmark_id', 'a.title', 'b.title as bookmark_title', 'b.link', 'a.byline', 'a.site_name', 'a.kept_at', 'a.attempted_at'])
          .select((s) => s.fn<string | null>('substr', ['a.text', s.lit(1), s.lit(SUMMARY_LENGTH)]).as('summary'))
          .orderBy('a.kept_at', 'desc')
          .orderBy('a.bookmark_id', 'desc')
          .limit(size)
          .offset(from)
          .execute(),
      ]);
      return {
        total: Number(count.total),
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
      const row = await kept(ownerId)
        .select(['a.title', 'b.title as bookmark_title', 'b.link', 'a.byline', 'a.site_name', 'a.html', 'a.kept_at', 'a.attempted_at'])
        .where('a.bookmark_id', '=', bookmarkId)
        .executeTakeFirst();
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
