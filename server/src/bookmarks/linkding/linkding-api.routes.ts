import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  LinkdingBookmark,
  LinkdingBookmarkInput,
  LinkdingBookmarkPage,
  LinkdingBookmarkPatch,
  LinkdingCheck,
  LinkdingCheckQuery,
  LinkdingCreateQuery,
  LinkdingDetail,
  LinkdingBadRequest,
  LinkdingIdParams,
  LinkdingListQuery,
  LinkdingProfile,
  LinkdingTag,
  LinkdingTagInput,
  LinkdingTagListQuery,
  LinkdingTagPage,
} from '../../../../contract/linkding.ts';
import type { Clock } from '../../clock.ts';
import { requestOrigin } from '../../http/request-origin.ts';
import type { BookmarksService } from '../bookmarks.service.ts';
import { createLinkdingBookmarks } from './linkding-bookmarks.ts';
import { replyAsLinkding } from './linkding-errors.ts';
import type { LinkPreviews } from '../preview/link-previews.ts';

type Options = { bookmarks: BookmarksService; previews: LinkPreviews; clock: Clock; publicUrl: string | undefined };

/** linkding's settings as its extension reads them: no sharing (it hides "Share"), nothing else it uses. */
const PROFILE: LinkdingProfile = {
  theme: 'auto',
  bookmark_date_display: 'relative',
  bookmark_link_target: '_blank',
  web_archive_integration: 'disabled',
  tag_search: 'lax',
  enable_sharing: false,
  enable_public_sharing: false,
  enable_favicons: false,
  display_url: false,
  permanent_notes: false,
  search_preferences: {},
  version: 'organiser',
};

const refusals = { 401: LinkdingDetail, 403: LinkdingDetail };
const missing = { ...refusals, 400: LinkdingBadRequest, 404: LinkdingDetail };

/**
 * A page as linkding's limit-offset pagination gives it: the count, and the addresses of the pages
 * before and after, with the request's other parameters kept.
 */
function paged<T>(request: FastifyRequest, publicUrl: string | undefined, query: { limit: number; offset: number }, count: number, results: T[]) {
  const [path = '', search = ''] = request.url.split('?');
  const at = (offset: number) => {
    const params = new URLSearchParams(search);
    params.set('limit', String(query.limit));
    if (offset > 0) params.set('offset', String(offset));
    else params.delete('offset');
    return `${requestOrigin(publicUrl, request)}${path}?${params}`;
  };
  return {
    count,
    next: query.offset + query.limit < count ? at(query.offset + query.limit) : null,
    previous: query.offset > 0 ? at(Math.max(0, query.offset - query.limit)) : null,
    results,
  };
}

/**
 * linkding's REST API (its `docs/src/content/docs/api.md`), for its browser extension and apps:
 * registered under `/linkding` behind `requireApiToken`, so the base address a user gives them is
 * `https://host/linkding`. Over the bookmarks service (docs/behaviour/bookmarks.md, "linkding's
 * clients"); the fields' mapping is decision 0042's.
 */
export const linkdingApiRoutes: FastifyPluginAsync<Options> = async (app, { bookmarks, previews, clock, publicUrl }) => {
  replyAsLinkding(app);
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const linkding = createLinkdingBookmarks({ bookmarks, previews });
  const tags = ['linkding'];

  for (const [path, kind, summary] of [
    ['/api/bookmarks/', 'active', 'linkding: the bookmarks not archived, newest first; `q` is a search phrase (words, `#tag`, `!unread`)'],
    ['/api/bookmarks/archived/', 'archived', 'linkding: the archived bookmarks, newest first; `q` as for the list'],
  ] as const) {
    routes.get(
      path,
      { schema: { tags, summary, querystring: LinkdingListQuery, response: { 200: LinkdingBookmarkPage, 400: LinkdingBadRequest, ...refusals } } },
      async (request) => {
        const { count, results } = await linkding.list(request.user.uid, kind, request.query);
        return paged(request, publicUrl, request.query, count, results);
      },
    );
  }

  routes.post(
    '/api/bookmarks/',
    {
      schema: {
        tags,
        summary:
          'linkding: save a bookmark (201); a link already saved updates that bookmark instead. `description` is the note, `notes` is added to it; an empty title is the link',
        querystring: LinkdingCreateQuery,
        body: LinkdingBookmarkInput,
        response: { 201: LinkdingBookmark, 400: LinkdingBadRequest, ...refusals },
      },
    },
    async (request, reply) => reply.code(201).send(await linkding.create(request.user.uid, request.body)),
  );

  routes.get(
    '/api/bookmarks/check/',
    {
      schema: {
        tags,
        summary: 'linkding: the bookmark of this link (or null), the page’s title and description read by the server, and no auto tags',
        querystring: LinkdingCheckQuery,
        response: { 200: LinkdingCheck, 400: LinkdingBadRequest, ...refusals },
      },
    },
    async (request) => linkding.check(request.user.uid, request.query.url),
  );

  routes.get(
    '/api/bookmarks/:id/',
    { schema: { tags, summary: 'linkding: one bookmark', params: LinkdingIdParams, response: { 200: LinkdingBookmark, ...missing } } },
    async (request) => linkding.get(request.user.uid, request.params.id),
  );

  for (const [method, body, summary] of [
    ['PUT', LinkdingBookmarkInput, 'linkding: change a bookmark; `url` is required, a field left out stays'],
    ['PATCH', LinkdingBookmarkPatch, 'linkding: change the fields given'],
  ] as const) {
    routes.route({
      method,
      url: '/api/bookmarks/:id/',
      schema: { tags, summary, params: LinkdingIdParams, body, response: { 200: LinkdingBookmark, ...missing } },
      handler: async (request) => linkding.update(request.user.uid, request.params.id, request.body),
    });
  }

  routes.delete(
    '/api/bookmarks/:id/',
    { schema: { tags, summary: 'linkding: delete a bookmark', params: LinkdingIdParams, response: { 204: z.null(), ...missing } } },
    async (request, reply) => {
      await linkding.delete(request.user.uid, request.params.id);
      return reply.code(204).send(null);
    },
  );

  for (const [action, archived] of [
    ['archive', true],
    ['unarchive', false],
  ] as const) {
    routes.post(
      `/api/bookmarks/:id/${action}/`,
      {
        schema: {
          tags,
          summary: archived ? 'linkding: archive a bookmark' : 'linkding: unarchive a bookmark (it is then read)',
          params: LinkdingIdParams,
          response: { 204: z.null(), ...missing },
        },
      },
      async (request, reply) => {
        await linkding.archive(request.user.uid, request.params.id, archived);
        return reply.code(204).send(null);
      },
    );
  }

  routes.get(
    '/api/tags/',
    {
      schema: {
        tags,
        summary: 'linkding: the tags of the user’s bookmarks, by name',
        querystring: LinkdingTagListQuery,
        response: { 200: LinkdingTagPage, 400: LinkdingBadRequest, ...refusals },
      },
    },
    async (request) => {
      const all = await linkding.tags(request.user.uid);
      const { offset, limit } = request.query;
      return paged(request, publicUrl, request.query, all.length, all.slice(offset, offset + limit));
    },
  );

  routes.get(
    '/api/tags/:id/',
    { schema: { tags, summary: 'linkding: one tag', params: LinkdingIdParams, response: { 200: LinkdingTag, ...missing } } },
    async (request) => linkding.tag(request.user.uid, request.params.id),
  );

  routes.post(
    '/api/tags/',
    {
      schema: {
        tags,
        summary: 'linkding: the tag of this name in any case, else the name as given (201); a tag is kept once a bookmark carries it',
        body: LinkdingTagInput,
        response: { 201: LinkdingTag, 400: LinkdingBadRequest, ...refusals },
      },
    },
    async (request, reply) => reply.code(201).send(await linkding.createTag(request.user.uid, request.body.name, clock.now())),
  );

  routes.get(
    '/api/user/profile/',
    { schema: { tags, summary: 'linkding: the settings its extension reads (sharing off)', response: { 200: LinkdingProfile, ...refusals } } },
    async () => PROFILE,
  );
};
