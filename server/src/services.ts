import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Logger } from './logger.ts';
import { createAdminService } from './admin/admin.service.ts';
import { createApiTokensService } from './auth/api-tokens.service.ts';
import { createApiTokensStore } from './auth/api-tokens.store.ts';
import { createAppPasswords } from './auth/app-passwords.ts';
import { createAuthenticator } from './auth/authenticate.ts';
import { createBasicAuth } from './auth/basic-auth.ts';
import { createAuthService } from './auth/auth.service.ts';
import { createCalendarTokens } from './auth/calendar-tokens.ts';
import { createLocalDisabledAccounts, createPostgresDisabledAccounts } from './auth/disabled-accounts.ts';
import { createIdentitiesService } from './auth/oidc/identities.service.ts';
import { createIdentityProviders } from './auth/oidc/identity-providers.ts';
import { createLinkIntents } from './auth/oidc/link-intents.ts';
import { createOidcService } from './auth/oidc/oidc.service.ts';
import { createProviderAccounts } from './auth/oidc/provider-accounts.ts';
import { providerName } from './auth/oidc/provider-name.ts';
import { signInRedirectOrigin } from './auth/oidc/redirect-origin.ts';
import { createPasswordResets } from './auth/password-resets.ts';
import { createSignInFlows } from './auth/oidc/sign-in-flow.ts';
import { createHashingQueue } from './auth/hashing-queue.ts';
import { createLoginLimiter } from './auth/login-limiter.ts';
import { createRefreshTokens } from './auth/refresh-tokens.ts';
import { sessionPruningJob } from './auth/session-pruning.ts';
import { createLocalSessionRevocations, createPostgresSessionRevocations } from './auth/session-revocations.ts';
import { loadSigningKey } from './auth/signing-key.ts';
import { createAccessTokens } from './auth/tokens.ts';
import { createPostgresBookmarkIndex } from './bookmarks/bookmarks.search.postgres.ts';
import { createSqliteBookmarkIndex } from './bookmarks/bookmarks.search.sqlite.ts';
import { createBookmarksService } from './bookmarks/bookmarks.service.ts';
import { createBookmarksStore } from './bookmarks/bookmarks.store.ts';
import { createLinkPreviews } from './bookmarks/preview/link-previews.ts';
import { createBooksService } from './books/books.service.ts';
import { createLocalLoadSharing, createPostgresLoadSharing } from './books/catalogue-load-sharing.ts';
import { createCatalogueLoads } from './books/catalogue-loads.ts';
import { createPostgresCatalogue } from './books/books.search.postgres.ts';
import { createSqliteCatalogue } from './books/books.search.sqlite.ts';
import type { Catalogue } from './books/books.search.ts';
import { indexSourceOf } from './books/word-index/index-sources.ts';
import { withWordIndex } from './books/word-index/word-indexed-catalogue.ts';
import { createCoverThumbnails } from './books/library/covers.ts';
import { createLibraryFiles } from './books/library/library.files.ts';
import { createLibraryWatcher } from './books/library/library.watcher.ts';
import { type Clock, systemClock } from './clock.ts';
import type { Config } from './config.ts';
import { createMailer } from './mail/mailer.ts';
import type { Storage } from './storage/database.ts';
import { createNoticeScheduler } from './tasks/notice-scheduler.ts';
import { createNoticesStore } from './tasks/notices.store.ts';
import { createTasksService } from './tasks/tasks.service.ts';
import { createTasksStore } from './tasks/tasks.store.ts';
import { createAccountsService } from './users/accounts.service.ts';
import { createLocalUserEvents, createPostgresUserEvents } from './users/user-events.ts';
import { createUsersService } from './users/users.service.ts';
import { createUsersStore } from './users/users.store.ts';

/** Work that runs in the background while the server is up: started when it is ready, stopped when it closes. */
export type Job = { name: string; start(): void; stop(): Promise<void> };

export type ServicesOptions = {
  config: Config;
  storage: Storage;
  clock?: Clock;
  log: Logger;
  /** Build the book search's word index now (a server), or at the first search (tests and commands, which rarely search). */
  eagerSearchWorkers?: boolean;
  /**
   * How searches use the word index: answered by the database's own engine while it is built
   * (a server), waiting for it (the tests, so that every search runs on it), or not at all (tests
   * of the database's own engines).
   */
  wordIndex?: 'background' | 'wait' | 'off';
  /** Told of each run of the notice scheduler as it starts (the tests wait for runs with it). */
  onNoticeRun?: (run: Promise<void>) => void;
};

/** What differs between the databases; `storage.dialect` alone decides it. */
async function databaseParts({ storage, log, eagerSearchWorkers = false, wordIndex = 'background', clock = systemClock }: ServicesOptions) {
  const indexed = (catalogue: Catalogue) =>
    wordIndex === 'off' ? catalogue : withWordIndex(catalogue, { source: indexSourceOf(storage), eager: eagerSearchWorkers, waitForIndex: wordIndex === 'wait' });
  if (storage.dialect === 'sqlite') {
    return {
      revocations: await createLocalSessionRevocations(storage.db, clock),
      disabledAccounts: await createLocalDisabledAccounts(storage.db),
      // The database's own engine answers only while the word index is built: its workers start when asked.
      catalogue: indexed(createSqliteCatalogue(storage.db, storage.sqliteFile)),
      bookmarkIndex: createSqliteBookmarkIndex(storage.db),
      events: createLocalUserEvents(),
      loadSharing: createLocalLoadSharing(),
      // One server and one writer per file: nothing to lock.
      noticeLocks: false,
    };
  }
  return {
    catalogue: indexed(createPostgresCatalogue(storage.db)),
    bookmarkIndex: createPostgresBookmarkIndex(storage.db),
    events: await createPostgresUserEvents(storage.db, storage.postgres, log),
    loadSharing: await createPostgresLoadSharing(storage.db, storage.postgres, log, randomUUID()),
    revocations: await createPostgresSessionRevocations(storage.db, clock, storage.postgres, log),
    disabledAccounts: await createPostgresDisabledAccounts(storage.db, storage.postgres, log),
    noticeLocks: true,
  };
}

/**
 * Every service of the application, built once from the configuration and the open storage: the
 * HTTP app (app.ts) serves them, and a command line can use them without it. `close()` stops the
 * jobs and lets go of what the services hold; the storage stays open for its owner to close.
 */
export async function createServices(options: ServicesOptions) {
  const { config, storage, clock = systemClock, log, onNoticeRun } = options;
  const { db } = storage;
  const { catalogue, bookmarkIndex, events, revocations, disabledAccounts, noticeLocks, loadSharing } = await databaseParts(options);

  const signingKey = await loadSigningKey(db, config.jwtSecret);
  const tokens = createAccessTokens(signingKey, clock);
  const hashing = createHashingQueue();
  // Failed sign-ins, counted per server instance in memory: at the sign-in form, at a password
  // change and in HTTP Basic alike.
  const logins = createLoginLimiter();
  const appPasswords = createAppPasswords(db, clock);
  const accounts = createAccountsService({
    db,
    clock,
    allowSignup: config.allowSignup,
    adminEmails: config.adminEmails,
    revocations,
    disabled: disabledAccounts,
    events,
    bookmarkIndex,
  });
  const auth = createAuthService({
    db,
    clock,
    tokens,
    refreshTokens: createRefreshTokens(signingKey),
    revocations,
    hashing,
    accounts,
    sessionDays: config.sessionDays,
  });
  const identityProviders = createIdentityProviders(config);
  const identities = createIdentitiesService({
    db,
    clock,
    config,
    // Without an address to come back to, a provider's popup could only fail.
    linkable: signInRedirectOrigin(config) === null ? [] : [...identityProviders.values()],
    revocations,
    disabled: disabledAccounts,
    locking: storage.dialect === 'postgres',
  });
  const oidc = createOidcService({
    providers: identityProviders,
    flows: createSignInFlows(signingKey, clock),
    accounts: createProviderAccounts({ db, clock, accounts }),
    identities,
    auth,
    events,
  });
  const usersStore = createUsersStore(db);
  const users = createUsersService({ users: usersStore, accounts, events, clock });

  const mailer = createMailer({ smtpUrl: config.smtpUrl, mailFrom: config.mailFrom, outboxDir: path.join(config.dataDir, 'outbox') });
  // Links mailed to people lead to PUBLIC_URL (or the one address listened on), never to a Host header.
  const mailedLinksOrigin = signInRedirectOrigin(config);
  const passwordResets =
    config.smtpUrl && mailedLinksOrigin ? createPasswordResets({ db, clock, auth, mailer, origin: mailedLinksOrigin, log }) : null;
  const admin = createAdminService({
    db,
    clock,
    accounts,
    auth,
    mailer: config.smtpUrl ? mailer : null,
    providerName: (issuer) => providerName(issuer, config),
    log,
  });

  const noticeScheduler = createNoticeScheduler({
    notices: createNoticesStore(db, { locking: noticeLocks }),
    mailer,
    clock,
    publicUrl: config.publicUrl ?? `http://localhost:${config.port}`,
    log,
    onRun: onNoticeRun,
  });
  const tasks = createTasksService({
    tasks: createTasksStore(db, { locking: noticeLocks }),
    clock,
    zoneOf: async (ownerId) => (await usersStore.findById(ownerId))?.timezone ?? 'UTC',
    onScheduleChange: noticeScheduler.poke,
  });
  const calendarTokens = createCalendarTokens(db, clock);
  const bookmarks = createBookmarksService({ store: createBookmarksStore(db), index: bookmarkIndex, clock });
  const linkPreviews = createLinkPreviews({ allowPrivate: config.previewAllowPrivate });
  const apiTokens = createApiTokensService({ store: createApiTokensStore(db), clock });
  const tmpDir = path.join(config.dataDir, 'tmp');
  const catalogueLoads = createCatalogueLoads({ clock, sharing: loadSharing });
  const books = createBooksService({ catalogue, tmpDir, loads: catalogueLoads, filesServed: config.calibreLibrary !== undefined });
  const libraryFiles = createLibraryFiles(config.calibreLibrary ?? null);
  const coverThumbnails = createCoverThumbnails({ cacheDir: path.join(config.dataDir, 'covers'), log });
  const library = config.calibreLibrary ? createLibraryWatcher({ folder: config.calibreLibrary, books, loads: catalogueLoads, tmpDir, clock, log }) : null;

  const jobs: Job[] = [
    { name: 'notice scheduler', start: noticeScheduler.start, stop: noticeScheduler.stop },
    sessionPruningJob(auth, log),
    ...(library ? [library] : []),
  ];
  return {
    authenticator: createAuthenticator({
      tokens,
      apiTokens,
      revocations,
      disabled: disabledAccounts,
      booksKey: config.booksApiKey,
      calendarTokens,
      basicAuth: createBasicAuth({ db, appPasswords, hashing, logins }),
    }),
    clock,
    calendarTokens,
    apiTokens,
    appPasswords,
    logins,
    accounts,
    admin,
    /** Null when mail is not set up (SMTP_URL) or the server does not know its own address (PUBLIC_URL). */
    passwordResets,
    auth,
    oidc,
    identities,
    linkIntents: createLinkIntents(signingKey, clock),
    users,
    tasks,
    bookmarks,
    linkPreviews,
    books,
    /** The catalogue itself, for the state of its search index (health). */
    catalogue: { indexStatus: () => catalogue.indexStatus?.() },
    catalogueLoads,
    /** The Calibre library folder's watcher, when `CALIBRE_LIBRARY` is set. */
    library,
    /** The books' files and covers in the library folder; none without `CALIBRE_LIBRARY`. */
    libraryFiles,
    coverThumbnails,
    jobs,
    async close(): Promise<void> {
      for (const job of jobs) await job.stop();
      await events.close();
      await catalogueLoads.close();
      await revocations.close();
      await disabledAccounts.close();
      await catalogue.close();
    },
  };
}
export type Services = Awaited<ReturnType<typeof createServices>>;
