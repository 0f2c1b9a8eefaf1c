import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Logger } from './logger.ts';
import { createAuthenticator } from './auth/authenticate.ts';
import { createAuthService } from './auth/auth.service.ts';
import { createCalendarTokens } from './auth/calendar-tokens.ts';
import { createIdentityProviders } from './auth/oidc/identity-providers.ts';
import { createOidcService } from './auth/oidc/oidc.service.ts';
import { createProviderAccounts } from './auth/oidc/provider-accounts.ts';
import { createSignInFlows } from './auth/oidc/sign-in-flow.ts';
import { createHashingQueue } from './auth/hashing-queue.ts';
import { createRefreshTokens } from './auth/refresh-tokens.ts';
import { sessionPruningJob } from './auth/session-pruning.ts';
import { createLocalSessionRevocations, createPostgresSessionRevocations } from './auth/session-revocations.ts';
import { loadSigningKey } from './auth/signing-key.ts';
import { createAccessTokens } from './auth/tokens.ts';
import { createPostgresBookmarkIndex } from './bookmarks/bookmarks.search.postgres.ts';
import { createSqliteBookmarkIndex } from './bookmarks/bookmarks.search.sqlite.ts';
import { createBookmarksService } from './bookmarks/bookmarks.service.ts';
import { createBookmarksStore } from './bookmarks/bookmarks.store.ts';
import { createBooksService } from './books/books.service.ts';
import { createLocalLoadSharing, createPostgresLoadSharing } from './books/catalogue-load-sharing.ts';
import { createCatalogueLoads } from './books/catalogue-loads.ts';
import { createPostgresCatalogue } from './books/books.search.postgres.ts';
import { createSqliteCatalogue } from './books/books.search.sqlite.ts';
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
  /** Start SQLite's search workers now (a server), or at the first search (tests and commands, which rarely search). */
  eagerSearchWorkers?: boolean;
  /** Told of each run of the notice scheduler as it starts (the tests wait for runs with it). */
  onNoticeRun?: (run: Promise<void>) => void;
};

/** What differs between the databases; `storage.dialect` alone decides it. */
async function databaseParts({ storage, log, eagerSearchWorkers, clock = systemClock }: ServicesOptions) {
  if (storage.dialect === 'sqlite') {
    return {
      revocations: await createLocalSessionRevocations(storage.db, clock),
      catalogue: createSqliteCatalogue(storage.db, storage.sqliteFile, { eager: eagerSearchWorkers ?? false }),
      bookmarkIndex: createSqliteBookmarkIndex(storage.db),
      events: createLocalUserEvents(),
      loadSharing: createLocalLoadSharing(),
      // One server and one writer per file: nothing to lock.
      noticeLocks: false,
    };
  }
  return {
    catalogue: createPostgresCatalogue(storage.db),
    bookmarkIndex: createPostgresBookmarkIndex(storage.db),
    events: await createPostgresUserEvents(storage.db, storage.postgres, log),
    loadSharing: await createPostgresLoadSharing(storage.db, storage.postgres, log, randomUUID()),
    revocations: await createPostgresSessionRevocations(storage.db, clock, storage.postgres, log),
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
  const { catalogue, bookmarkIndex, events, revocations, noticeLocks, loadSharing } = await databaseParts(options);

  const signingKey = await loadSigningKey(db, config.jwtSecret);
  const tokens = createAccessTokens(signingKey, clock);
  const accounts = createAccountsService({ db, clock, allowSignup: config.allowSignup, adminEmails: config.adminEmails });
  const auth = createAuthService({
    db,
    clock,
    tokens,
    refreshTokens: createRefreshTokens(signingKey),
    revocations,
    hashing: createHashingQueue(),
    accounts,
    sessionDays: config.sessionDays,
  });
  const oidc = createOidcService({
    providers: createIdentityProviders(config),
    flows: createSignInFlows(signingKey, clock),
    accounts: createProviderAccounts({ db, clock, accounts }),
    auth,
    events,
  });
  const usersStore = createUsersStore(db);
  const users = createUsersService({ users: usersStore, events, clock });

  const noticeScheduler = createNoticeScheduler({
    notices: createNoticesStore(db, { locking: noticeLocks }),
    mailer: createMailer({ smtpUrl: config.smtpUrl, mailFrom: config.mailFrom, outboxDir: path.join(config.dataDir, 'outbox') }),
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
  const tmpDir = path.join(config.dataDir, 'tmp');
  const catalogueLoads = createCatalogueLoads({ clock, sharing: loadSharing });
  const books = createBooksService({ catalogue, tmpDir, loads: catalogueLoads });
  const library = config.calibreLibrary ? createLibraryWatcher({ folder: config.calibreLibrary, books, loads: catalogueLoads, tmpDir, clock, log }) : null;

  const jobs: Job[] = [
    { name: 'notice scheduler', start: noticeScheduler.start, stop: noticeScheduler.stop },
    sessionPruningJob(auth, log),
    ...(library ? [library] : []),
  ];
  return {
    authenticator: createAuthenticator({ tokens, revocations, booksKey: config.booksApiKey, calendarTokens }),
    calendarTokens,
    accounts,
    auth,
    oidc,
    users,
    tasks,
    bookmarks,
    books,
    catalogueLoads,
    /** The Calibre library folder's watcher, when `CALIBRE_LIBRARY` is set. */
    library,
    jobs,
    async close(): Promise<void> {
      for (const job of jobs) await job.stop();
      await events.close();
      await catalogueLoads.close();
      await revocations.close();
      await catalogue.close();
    },
  };
}
export type Services = Awaited<ReturnType<typeof createServices>>;
