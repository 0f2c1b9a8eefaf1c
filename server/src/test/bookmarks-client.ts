import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import {
  Bookmark,
  BookmarkBulkReply,
  BookmarkPage,
  BookmarkSearchResult,
  type BookmarkDraft,
  type BookmarkQuerySpec,
  TagCounts,
} from '../../../contract/bookmarks.ts';
import { bearer } from './test-app.ts';

/** One user's calls to the bookmark API, each checked for success and parsed with the contract. */
export function bookmarksClient(app: FastifyInstance, token: string) {
  const headers = bearer(token);
  return {
    headers,
    async create(draft: BookmarkDraft): Promise<Bookmark> {
      const response = await app.inject({ method: 'POST', url: '/bookmarks/', payload: draft, headers });
      expect(response.statusCode, response.body).toBe(200);
      return Bookmark.parse(response.json());
    },
    async index(bookmark: Bookmark): Promise<Bookmark> {
      const response = await app.inject({ method: 'POST', url: '/api/bookmarks/', payload: bookmark, headers });
      expect(response.statusCode, response.body).toBe(200);
      return Bookmark.parse(response.json());
    },
    async createIndexed(draft: BookmarkDraft): Promise<Bookmark> {
      return this.index(await this.create(draft));
    },
    async list(query: Record<string, string> = {}, cursor?: string): Promise<BookmarkPage> {
      const response = await app.inject({ url: '/bookmarks/', query, headers: { ...headers, ...(cursor ? { pageCursor: cursor } : {}) } });
      expect(response.statusCode, response.body).toBe(200);
      return BookmarkPage.parse(response.json());
    },
    async search(spec: Partial<BookmarkQuerySpec>, query: Record<string, string> = {}): Promise<BookmarkSearchResult> {
      const response = await app.inject({ method: 'POST', url: '/api/bookmarks/query', query, payload: spec, headers });
      expect(response.statusCode, response.body).toBe(200);
      return BookmarkSearchResult.parse(response.json());
    },
    async tags() {
      const response = await app.inject({ url: '/bookmarks/tags', headers });
      expect(response.statusCode, response.body).toBe(200);
      return TagCounts.parse(response.json());
    },
    async bulk(body: unknown): Promise<number> {
      const response = await app.inject({ method: 'POST', url: '/bookmarks/bulk', payload: body as object, headers });
      expect(response.statusCode, response.body).toBe(200);
      return BookmarkBulkReply.parse(response.json()).count;
    },
    inject(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) {
      return app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
    },
  };
}
export type BookmarksClient = ReturnType<typeof bookmarksClient>;
