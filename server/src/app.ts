import cookie from '@fastify/cookie';
import Fastify, { type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { adminRoutes } from './admin/admin.routes.ts';
import { accountRoutes } from './auth/account.routes.ts';
import { apiTokensRoutes } from './auth/api-tokens.routes.ts';
import { appPasswordsRoutes } from './auth/app-passwords.routes.ts';
import { authRoutes } from './auth/auth.routes.ts';
import { calendarTokensRoutes } from './auth/calendar-tokens.routes.ts';
import { caldavDiscoveryRoutes, caldavRoutes } from './caldav/caldav.routes.ts';
import { decorateRequestsWithPrincipal, guardRoutes } from './auth/authenticate.ts';
import { identitiesRoutes } from './auth/oidc/identities.routes.ts';
import { oidcRoutes } from './auth/oidc/oidc.routes.ts';
import { sessionsRoutes } from './auth/sessions.routes.ts';
import { archiveRoutes } from './bookmarks/archive/archive.routes.ts';
import { articleSendRoutes } from './bookmarks/archive/article-send.routes.ts';
import { bookmarksRoutes } from './bookmarks/bookmarks.routes.ts';
import { linkdingApiRoutes } from './bookmarks/linkding/linkding-api.routes.ts';
import { LINKDING_BASE_PATH } from '../../contract/linkding.ts';
import { bookSearchPreferencesRoutes } from './books/book-search-preferences.routes.ts';
import { booksRoutes } from './books/books.routes.ts';
import { catalogueLoadsRoutes } from './books/catalogue-loads.routes.ts';
import { libraryRoutes } from './books/library/library.routes.ts';
import { sendToDeviceRoutes } from './books/send-to-device.routes.ts';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import { frameworkErrorReply, installErrorHandler } from './errors.ts';
import { createApiPaths } from './http/api-paths.ts';
import { capConnections } from './http/connection-cap.ts';
import { DEFAULT_HTTP_LIMITS, type HttpLimits } from './http/http-limits.ts';
import { stripControlCharactersAtTheEdge } from './control-characters.ts';
import { healthRoutes } from './http/health.routes.ts';
import { registerOpenApi } from './http/openapi.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { endSlowBodies } from './http/slow-bodies.ts';
import { registerWebClient } from './http/web-client.ts';
import { noticeDoneRoutes, notifyRoutes } from './notify/notify.routes.ts';
import { opdsRoutes } from './opds/opds.routes.ts';
import { kosyncRoutes } from './reading/kosync.routes.ts';
import { readingRoutes } from './reading/reading.routes.ts';
import { createServices, type ServicesOptions } from './services.ts';
import type { Storage } from './storage/database.ts';
import { shelvesRoutes } from './shelves/shelves.routes.ts';
import { calendarFeedRoutes } from './tasks/calendar.routes.ts';
import { listsRoutes } from './tasks/lists.routes.ts';
import { tasksRoutes } from './tasks/tasks.routes.ts';
import { usersRoutes } from './users/users.routes.ts';

export type AppOptions = {
  config: Config;
  storage: Storage;
  clock?: Clock;
  logger?: FastifyServerOptions['logger'];
  webDist?: string;
  /** Build the book search's word index with the app (true), or at its first search (tests, which rarely search). */
  startSearchWorkers?: boolean;
  wordIndex?: ServicesOptions['wordIndex'];
  onNoticeRun?: ServicesOptions['onNoticeRun'];
  passwordCost?: ServicesOptions['passwordCost'];
  pushServiceCa?: ServicesOptions['pushServiceCa'];
  /** Shorter time limits, for tests that watch them act; the connection cap comes from the config. */
  httpLimits?: Partial<HttpLimits>;
};

/**
 * The HTTP server: plugins and routes over the services (services.ts), whose jobs start when it
 * is ready and stop when it closes. `main.ts` listens with it and tests inject into it.
 */
export async function buildApp({
  config,
  storage,
  clock,
  logger = false,
  webDist,
  startSearchWorkers = true,
  wordIndex = 'background',
  onNoticeRun,
  httpLimits,
  passwordCost,
  pushServiceCa,
}: AppOptions) {
  const limits: HttpLimits = { ...DEFAULT_HTTP_LIMITS, maxConnections: config.maxConnections, ...httpLimits };
  const app = Fastify({
    logger,
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    http: { headersTimeout: limits.headersMs, connectionsCheckingInterval: limits.checkEveryMs },
    keepAliveTimeout: limits.keepAliveMs,
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors: frameworkErrorReply,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandler(app);
  capConnections(app.server, limits.maxConnections);
  endSlowBodies(app, limits);
  stripControlCharactersAtTheEdge(app);

  registerSecurityHeaders(app);
  await registerOpenApi(app, { publicUrl: config.publicUrl });
  await app.register(cookie);
  decorateRequestsWithPrincipal(app);

  const services = await createServices({
    config,
    storage,
    clock,
    log: app.log,
    eagerSearchWorkers: startSearchWorkers,
    wordIndex,
    onNoticeRun,
    passwordCost,
    pushServiceCa,
  });
  app.addHook('onReady', async () => {
    for (const job of services.jobs) job.start();
  });
  app.addHook('onClose', () => services.close());

  const { authenticator, logins } = services;
  const apiPaths = createApiPaths();
  await app.register(async (api) => {
    apiPaths.learnFrom(api);
    await api.register(healthRoutes, { storage, library: services.library, catalogue: services.catalogue });
    await api.register(authRoutes, {
      auth: services.auth,
      accounts: services.accounts,
      passwordResets: services.passwordResets,
      logins,
      config,
    });
    await api.register(oidcRoutes, { oidc: services.oidc, linkIntents: services.linkIntents, config });
    await api.register(async (signedIn) => {
      guardRoutes(signedIn, authenticator.requireUser);
      await signedIn.register(usersRoutes, { users: services.users });
      await signedIn.register(sessionsRoutes, { auth: services.auth });
      await signedIn.register(accountRoutes, {
        auth: services.auth,
        accounts: services.accounts,
        logins,
        bookmarks: services.bookmarks,
        tasks: services.tasks,
      });
      await signedIn.register(identitiesRoutes, {
        identities: services.identities,
        oidc: services.oidc,
        linkIntents: services.linkIntents,
        config,
      });
      await signedIn.register(appPasswordsRoutes, { appPasswords: services.appPasswords });
      await signedIn.register(calendarTokensRoutes, { calendarTokens: services.calendarTokens, publicUrl: config.publicUrl });
      await signedIn.register(apiTokensRoutes, { apiTokens: services.apiTokens });
      await signedIn.register(bookSearchPreferencesRoutes, { preferences: services.bookSearchPreferences });
      await signedIn.register(shelvesRoutes, { shelves: services.shelves });
      await signedIn.register(sendToDeviceRoutes, { devices: services.eReaderDevices, sendToDevice: services.sendToDevice });
      await signedIn.register(articleSendRoutes, { articles: services.articlesToRead, sendFile: services.sendToDevice.sendFile });
      await signedIn.register(readingRoutes, { reading: services.reading });
      await signedIn.register(notifyRoutes, { ...services.notify, clock: services.clock });
    });
    await api.register(noticeDoneRoutes, {
      doneTokens: services.notify.doneTokens,
      clock: services.clock,
      complete: async ({ ownerId, taskId, scheduleTime }) => {
        await services.tasks.completeOccurrence(ownerId, taskId, scheduleTime);
      },
    });
    // A personal API token is good here and nowhere else: a leaked script token reaches the owner's
    // bookmarks and tasks, never the account, its sessions or its tokens.
    await api.register(async (owners) => {
      guardRoutes(owners, authenticator.requireUserOrApiToken);
      await owners.register(bookmarksRoutes, { bookmarks: services.bookmarks, previews: services.linkPreviews });
      await owners.register(archiveRoutes, { archive: services.bookmarkArchive });
      await owners.register(tasksRoutes, { tasks: services.tasks });
      await owners.register(listsRoutes, { lists: services.taskLists });
    });
    // linkding's browser extension and apps, given `https://host/linkding`: its API under that base,
    // with a personal API token as `Authorization: Token …` (docs/behaviour/bookmarks.md).
    await api.register(
      async (linkding) => {
        guardRoutes(linkding, authenticator.requireApiToken);
        await linkding.register(linkdingApiRoutes, {
          bookmarks: services.bookmarks,
          previews: services.linkPreviews,
          clock: services.clock,
          publicUrl: config.publicUrl,
        });
      },
      { prefix: LINKDING_BASE_PATH },
    );
    await api.register(calendarFeedRoutes, {
      tasks: services.tasks,
      calendarTokens: services.calendarTokens,
      requireCalendarToken: authenticator.requireCalendarToken,
      publicUrl: config.publicUrl,
    });
    await api.register(adminRoutes, {
      admin: services.admin,
      requireAdmin: authenticator.requireAdmin('administer accounts'),
      publicUrl: config.publicUrl,
    });
    await api.register(booksRoutes, {
      books: services.books,
      files: services.libraryFiles,
      authenticator,
      maxUploadMb: config.maxUploadMb,
      progressOf: services.reading.percentages,
    });
    await api.register(libraryRoutes, {
      books: services.books,
      files: services.libraryFiles,
      thumbnails: services.coverThumbnails,
      authenticator,
    });
    await api.register(opdsRoutes, { books: services.books, shelves: services.shelves, articles: services.articlesToRead, files: services.libraryFiles, authenticator, clock: services.clock, publicUrl: config.publicUrl });
    await api.register(catalogueLoadsRoutes, { loads: services.catalogueLoads, authenticator });
    await api.register(kosyncRoutes, { koreader: services.koreader, authenticator });
    await api.register(caldavRoutes, { ...services.caldav, authenticator });
  });
  await app.register(caldavDiscoveryRoutes);
  await registerWebClient(app, { distDir: webDist, isApiPath: apiPaths.has });
  return app;
}
