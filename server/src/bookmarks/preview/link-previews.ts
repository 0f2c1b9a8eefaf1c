import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { BOOKMARK_LIMITS, type BookmarkPreview } from '../../../../contract/bookmarks.ts';
import { tooMany } from '../../errors.ts';
import { createPagePreview } from './page-preview.ts';
import { isPublicAddress } from './public-address.ts';

/** A person fills a form a few times a minute; a script that asks more is using the server as a proxy. */
export const PREVIEWS_PER_USER = { points: 3, seconds: 1 } as const;

/** Page previews for the create form: each user's rate held down, the texts cut to what a bookmark keeps. */
export function createLinkPreviews({ allowPrivate }: { allowPrivate: boolean }) {
  const pages = createPagePreview({ mayVisit: allowPrivate ? () => true : isPublicAddress });
  const perUser = new RateLimiterMemory({ points: PREVIEWS_PER_USER.points, duration: PREVIEWS_PER_USER.seconds });
  return {
    async preview(ownerId: string, link: string): Promise<BookmarkPreview> {
      try {
        await perUser.consume(ownerId);
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) throw tooMany('page previews', rejection.msBeforeNext);
        throw rejection;
      }
      const { title, description } = await pages.preview(link);
      return { title: title.slice(0, BOOKMARK_LIMITS.title), note: description.slice(0, BOOKMARK_LIMITS.note) };
    },
  };
}
export type LinkPreviews = ReturnType<typeof createLinkPreviews>;
