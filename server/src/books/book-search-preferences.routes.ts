import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { BookSearchPreferences } from '../../../contract/books.ts';
import { ErrorReply } from '../../../contract/errors.ts';
import type { BookSearchPreferencesStore } from './book-search-preferences.store.ts';

/** The signed-in user's book search settings (issue 37); registered behind requireUser. */
export const bookSearchPreferencesRoutes: FastifyPluginAsync<{ preferences: BookSearchPreferencesStore }> = async (app, { preferences }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/api/books/search-settings',
    {
      schema: {
        tags: ['books'],
        summary: "The account's book search settings; the specification's defaults until some are saved",
        response: { 200: BookSearchPreferences, 401: ErrorReply },
      },
    },
    async (request) => preferences.get(request.user.uid),
  );

  routes.put(
    '/api/books/search-settings',
    {
      schema: {
        tags: ['books'],
        summary: "Keep the account's book search settings, whole",
        body: BookSearchPreferences,
        response: { 200: BookSearchPreferences, 400: ErrorReply, 401: ErrorReply },
      },
    },
    async (request) => preferences.put(request.user.uid, request.body),
  );
};
