import cookie from '@fastify/cookie';
import Fastify, { type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import path from 'node:path';
import { createAuthService } from './auth/auth.service.ts';
import { authRoutes } from './auth/auth.routes.ts';
import { createLoginLimiter } from './auth/login-limiter.ts';
import { createIdentityProviders } from './auth/oidc/identity-providers.ts';
import { createOidcService } from './auth/oidc/oidc.service.ts';
import { oidcRoutes } from './auth/oidc/oidc.routes.ts';
import { createProviderAccounts } from './auth/oidc/provider-accounts.ts';
import { createSignInFlows } from './auth/oidc/sign-in-flow.ts';
import { requireUser } from './auth/require-user.ts';
import { loadSigningKey } from './auth/signing-key.ts';
import { createAccessTokens } from './auth/tokens.ts';
import { createPostgresBookmarkIndex } from './bookmarks/bookmark-index.postgres.ts';
import { createSqliteBookmarkIndex } from './bookmarks/bookmark-index.sqlite.ts';
import { bookmarksRoutes } from './bookmarks/bookmarks.routes.ts';
import { createBookmarksService } from './bookmarks/bookmarks.service.ts';
import { createBookmarksStore } from './bookmarks/bookmarks.store.ts';
import { booksRoutes } from './books/books.routes.ts';
import { createBooksService } from './books/books.service.ts';
import { createPostgresCatalogue } from './books/catalogue.postgres.ts';
import { createSqliteCatalogue } from './books/catalogue.sqlite.ts';
import { type Clock, systemClock } from './clock.ts';
import type { Config } from './config.ts';
import { installErrorHandler } from './errors.ts';
import { healthRoutes } from './http/health.routes.ts';
import { registerOpenApi } from './http/openapi.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { registerWebClient } from './http/web-client.ts';
import type { Storage } from './storage/database.ts';
import { outboxMailer, smtpMailer } from './tasks/mailer.ts';
import { createNoticeScheduler, type NoticeScheduler } from './tasks/notice-scheduler.ts';
import { createNoticesStore } from './tasks/notices.store.ts';
import { tasksRoutes } from './tasks/tasks.routes.ts';
import { createTasksService } from './tasks/tasks.service.ts';
import { createTasksStore } from './tasks/tasks.store.ts';
import { createUserEvents } from './users/user-events.ts';
import { usersRoutes } from './users/users.routes.ts';
import { createUsersService } from './users/users.service.ts';
import { createUsersStore } from './users/users.store.ts';

export type AppOptions = {
  config: Config;
  storage: Storage;
  clock?: Clock;
  logger?: FastifyServerOptions['logger'];
  webDist?: string;
  /** Start SQLite's search workers with the app (true), or at its first search (tests, which rarely search). */
  startSearchWorkers?: boolean;
};

declare module 'fastify' {
  interface FastifyInstance {
    /** Sends task notices; it starts when the app is ready and stops when it closes. */
    noticeScheduler: NoticeScheduler;
  }
}

const SESSION_PRUNE_INTERVAL_MS = 6 * 60 * 60 * 1000;

/** Builds the whole server; `main.ts` listens with it and tests inject into it. */
export async function buildApp({
  config,
  storage,
  clock = systemClock,
  logger = false,
  webDist,
  startSearchWorkers = true,
}: AppOptions) {
  const app = Fastify({
    logger,
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandler(app);

  await registerSecurityHeaders(app);
  await registerOpenApi(app);
  await app.register(cookie);

  const signingKey = await loadSigningKey(storage.db, config.jwtSecret);
  const tokens = createAccessTokens(signingKey, clock);
  const auth = createAuthService({
    db: storage.db,
    clock,
    tokens,
    adminEmails: config.adminEmails,
    allowSignup: config.allowSignup,
    sessionDays: config.sessionDays,
  });
  const events = await createUserEvents(storage, app.log);
  const usersStore = createUsersStore(storage.db);
  const users = createUsersService({ users: usersStore, events, clock });
  const noticeScheduler = createNoticeScheduler({
    notices: createNoticesStore(storage.db, storage.dialect),
    mailer: config.smtpUrl
      ? smtpMailer(config.smtpUrl, config.mailFrom)
      : outboxMailer(path.join(config.dataDir, 'outbox'), config.mailFrom),
    clock,
    publicUrl: config.publicUrl ?? `http://localhost:${config.port}`,
    log: app.log,
  });
  app.decorate('noticeScheduler', noticeScheduler);
  const tasks = createTasksService({
    tasks: createTasksStore(storage.db),
    clock,
    zoneOf: async (ownerId) => (await usersStore.findById(ownerId))?.timezone ?? 'UTC',
    onScheduleChange: noticeScheduler.poke,
  });
  const bookmarks = createBookmarksService({
    store: createBookmarksStore(storage.db),
    index: storage.dialect === 'sqlite' ? createSqliteBookmarkIndex(storage.db) : createPostgresBookmarkIndex(storage.db),
    clock,
  });

  await app.register(healthRoutes, { storage });
  await app.register(authRoutes, { auth, limiter: createLoginLimiter(), config });
  const oidc = createOidcService({
    providers: createIdentityProviders(config),
    flows: createSignInFlows(signingKey, clock),
    accounts: createProviderAccounts({ db: storage.db, clock, allowSignup: config.allowSignup }),
    auth,
    events,
  });
  await app.register(oidcRoutes, { oidc, config });
  app.decorateRequest('user', null as never);
  await app.register(async (signedIn) => {
    signedIn.addHook('onRequest', requireUser(tokens));
    await signedIn.register(usersRoutes, { users });
    await signedIn.register(bookmarksRoutes, { bookmarks });
    await signedIn.register(tasksRoutes, { tasks });
  });
  const catalogue = storage.sqliteFile
    ? createSqliteCatalogue(storage.db, storage.sqliteFile, { eager: startSearchWorkers })
    : createPostgresCatalogue(storage.db);
  await app.register(booksRoutes, {
    books: createBooksService({ catalogue, tmpDir: path.join(config.dataDir, 'tmp') }),
    tokens,
    apiKey: config.booksApiKey,
    maxUploadMb: config.maxUploadMb,
  });
  await registerWebClient(app, webDist);

  const prune = setInterval(() => {
    auth.pruneSessions().catch((error: unknown) => app.log.warn({ err: error }, 'pruning sessions failed'));
  }, SESSION_PRUNE_INTERVAL_MS);
  prune.unref();
  app.addHook('onReady', async () => noticeScheduler.start());
  app.addHook('onClose', async () => {
    await noticeScheduler.stop();
    clearInterval(prune);
    await events.close();
    await catalogue.close();
  });
  return app;
}
