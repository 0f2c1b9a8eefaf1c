import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Logger } from './logger.ts';
import { createAdminService } from './admin/admin.service.ts';
import { createApiTokensService } from './auth/api-tokens.service.ts';
import { createApiTokensStore } from './auth/api-tokens.store.ts';
import { createAppPasswords } from './auth/app-passwords.ts';
import { createAuthenticator } from './auth/authenticate.ts';
import { createBasicAuth } from './auth/basic-auth.ts';
import { createSyncKeyAuth } from './auth/sync-key-auth.ts';
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
import { createSessionsStore } from './auth/sessions.store.ts';
import { loadSigningKey } from './auth/signing-key.ts';
import { createAccessTokens } from './auth/tokens.ts';
import { createBookmarkImportsStore } from './bookmarks/bookmark-imports.store.ts';
import { createPostgresBookmarkIndex } from './bookmarks/bookmarks.search.postgres.ts';
import { createSqliteBookmarkIndex } from './bookmarks/bookmarks.search.sqlite.ts';
import { IMPORT_BATCH } from './bookmarks/bookmark-file-import.ts';
import { createBookmarksService } from './bookmarks/bookmarks.service.ts';
import { createBookmarksStore } from './bookmarks/bookmarks.store.ts';
import { createLinkPreviews } from './bookmarks/preview/link-previews.ts';
import { createArchiveService } from './bookmarks/archive/archive.service.ts';
import { createArchivesStore } from './bookmarks/archive/archives.store.ts';
import { pageWordsWriter, reindexPageWords } from './bookmarks/bookmark-page-words.ts';
import { createArticlesToRead } from './bookmarks/archive/articles-to-read.ts';
import { createPageArchiver } from './bookmarks/archive/page-archiver.ts';
import { isPublicAddress } from './bookmarks/preview/public-address.ts';
import { guardedLookup } from './bookmarks/preview/guarded-lookup.ts';
import { createBookSearchPreferencesStore } from './books/book-search-preferences.store.ts';
import { createBooksService } from './books/books.service.ts';
import { createEReaderDevicesStore } from './books/e-reader-devices.store.ts';
import { createSendToDevice } from './books/send-to-device.ts';
import { createLocalLoadSharing, createPostgresLoadSharing } from './books/catalogue-load-sharing.ts';
import { createCatalogueLoads } from './books/catalogue-loads.ts';
import { createPostgresCatalogue } from './books/catalogue.postgres.ts';
import { createSqliteCatalogue } from './books/catalogue.sqlite.ts';
import { type CatalogueStore, searchedCatalogue } from './books/books.search.ts';
import { createBookSearch } from './books/search-index/book-search.ts';
import { indexSourceOf } from './books/search-index/index-sources.ts';
import { createCoverThumbnails } from './books/library/covers.ts';
import { createLibraryFiles } from './books/library/library.files.ts';
import { createLibraryWatcher } from './books/library/library.watcher.ts';
import { BOOK_TEXT_FILE } from './books/book-text/book-text-file.ts';
import { createBookText } from './books/book-text/book-text.ts';
import { type Clock, systemClock } from './clock.ts';
import type { Config } from './config.ts';
import type { Job } from './job.ts';
import { createMailer } from './mail/mailer.ts';
import { createChannelsStore } from './notify/channels.store.ts';
import { createDoneTokens } from './notify/done-tokens.ts';
import { createNotifier, vapidSubject } from './notify/notifier.ts';
import { loadVapidKeys } from './notify/vapid-keys.ts';
import type { Storage } from './storage/database.ts';
import { createShelvesService } from './shelves/shelves.service.ts';
import { createShelvesStore } from './shelves/shelves.store.ts';
import { createListsService } from './tasks/lists.service.ts';
import { createListsStore } from './tasks/lists.store.ts';
import { createNoticeScheduler } from './tasks/notice-scheduler.ts';
import { createNoticesStore } from './tasks/notices.store.ts';
import { createTasksService } from './tasks/tasks.service.ts';
import { createTasksStore } from './tasks/tasks.store.ts';
import { createAccountsService } from './users/accounts.service.ts';
import { createLocalUserEvents, createPostgresUserEvents } from './users/user-events.ts';
import { createUsersService } from './users/users.service.ts';
import { createUsersStore } from './users/users.store.ts';
import { reindexBookmarks } from './bookmarks/bookmarks.reindex.ts';
import { reindexCatalogue } from './books/books.reindex.ts';
import { rebuildStale } from './storage/stale-derived-data.ts';
import { createDocumentIds } from './reading/document-ids.ts';
import { createKoreaderService } from './reading/koreader.service.ts';
import { createKoreaderStore } from './reading/koreader.store.ts';
import { createPositionsStore } from './reading/positions.store.ts';
import { createReadingService } from './reading/reading.service.ts';
import type { PasswordCost } from './auth/passwords.ts';
import { createCalDavReads } from './caldav/caldav.service.ts';
import { createCalDavWrites } from './caldav/caldav.writes.ts';
import { createTaskChangesStore } from './tasks/task-changes.store.ts';
import { createTaskSync } from './tasks/task-sync.ts';

/** The book search's index, kept in `DATA_DIR` so that a restart reads it rather than building it (docs/book-search.md). */
export const BOOK_SEARCH_INDEX_FILE = 'book-search.index';

export type ServicesOptions = {
  config: Config;
  storage: Storage;
  clock?: Clock;
  log: Logger;
  /** Read or build the book search's index now (a server), or at the first search (tests and commands, which rarely search). */
  eagerSearchWorkers?: boolean;
  /**
   * How searches use the book search's index while it is built: refused until the first exists,
   * then answered by the one before (a server), or waiting for the current one (the tests, so that
   * every search answers for the catalogue they loaded).
   */
  wordIndex?: 'background' | 'wait';
  /** Told of each run of the notice scheduler as it starts (the tests wait for runs with it). */
  onNoticeRun?: (run: Promise<void>) => void;
  /** New passwords' scrypt cost: the tests' is lower (the same code, a smaller N), the server's OWASP's. */
  passwordCost?: PasswordCost;
  /** A certificate authority trusted for push services besides the system's: the tests' stand-in. */
  pushServiceCa?: string;
};

/** What differs between the databases; `storage.dialect` alone decides it. */
async function databaseParts({ config, storage, log, eagerSearchWorkers = false, wordIndex = 'background', clock = systemClock }: ServicesOptions) {
  const indexed = (catalogue: CatalogueStore) =>
    searchedCatalogue(
      catalogue,
      createBookSearch({
        source: indexSourceOf(storage),
        file: path.join(config.dataDir, BOOK_SEARCH_INDEX_FILE),
        ...(config.calibreLibrary ? { textFile: path.join(config.dataDir, BOOK_TEXT_FILE) } : {}),
        eager: eagerSearchWorkers,
        waitForIndex: wordIndex === 'wait',
      }),
    );
  if (storage.dialect === 'sqlite') {
    return {
      revocations: await createLocalSessionRevocations(storage.db, clock),
      disabledAccounts: await createLocalDisabledAccounts(storage.db),
      catalogue: indexed(createSqliteCatalogue(storage.db, storage.sqliteFile)),
      bookmarkIndex: createSqliteBookmarkIndex(storage.db),
      events: createLocalUserEvents(),
      loadSharing: createLocalLoadSharing(),
      // One server and one writer per file: nothing to lock.
      noticeLocks: false,
    };
  }
  return {
    catalogue: indexed(createPostgresCatalogue(storage.db, storage.postgres)),
    bookmarkIndex: createPostgresBookmarkIndex(storage.db),
    events: await createPostgresUserEvents(storage.db, storage.postgres, log),
    loadSharing: await createPostgresLoadSharing(storage.db, storage.postgres, log, randomUUID()),
    revocations: await createPostgresSessionRevocations(storage.db, clock, storage.postgres, log),
    disabledAccounts: await createPostgresDisabledAccounts(storage.db, storage.postgres, log),
    noticeLocks: true,
  };
}

/** What a migration marked stale (storage/stale-derived-data.ts), worked out again by the feature that owns it. */
export async function workOutStaleData({ db, dialect }: Pick<Storage, 'db' | 'dialect'>) {
  return rebuildStale(db, {
    'books.identifier_key': () => reindexCatalogue(db, dialect),
    'bookmarks.words': () => reindexBookmarks(db, dialect),
    'bookmarks.page_words': () => reindexPageWords(db, dialect),
  });
}

/**
 * Every service of the application, built once from the configuration and the open storage: the
 * HTTP app (app.ts) serves them, and a command line can use them without it. `close()` stops the
 * jobs and lets go of what the services hold; the storage stays open for its owner to close.
 */
export async function createServices(options: ServicesOptions) {
  const { config, storage, clock = systemClock, log, onNoticeRun, passwordCost, pushServiceCa } = options;
  const { db } = storage;
  // Before anything reads it.
  await workOutStaleData(storage);
  const { catalogue, bookmarkIndex, events, revocations, disabledAccounts, noticeLocks, loadSharing } = await databaseParts(options);

  const signingKey = await loadSigningKey(db, config.jwtSecret);
  const tokens = createAccessTokens(signingKey, clock);
  const hashing = createHashingQueue(passwordCost);
  // Failed sign-ins, counted per server instance in memory: at the sign-in form, at a password
  // change and in HTTP Basic alike.
  const logins = createLoginLimiter();
  const appPasswords = createAppPasswords(db, clock);
  const listsStore = createListsStore(db);
  const accounts = createAccountsService({
    db,
    clock,
    allowSignup: config.allowSignup,
    adminEmails: config.adminEmails,
    // Ends every sign-in of the user; the caller tells every instance, so that each token stops at its next request.
    endSessionsOf: (q, userId) => createSessionsStore(q).revokeFamiliesOf(userId, {}, clock.now()),
    revocations,
    disabled: disabledAccounts,
    events,
    bookmarkIndex,
    beforeDelete: (userId) => listsStore.forgetAccount(userId),
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

  const publicUrl = config.publicUrl ?? `http://localhost:${config.port}`;
  const vapid = await loadVapidKeys(db);
  const channels = createChannelsStore(db);
  const doneTokens = createDoneTokens(db);
  // Push services and ntfy topics are the users' addresses: reached as safely as a bookmarked page.
  const mayVisit = config.previewAllowPrivate ? () => true : isPublicAddress;
  const notifier = createNotifier({
    channels,
    doneTokens,
    vapid,
    subject: vapidSubject(publicUrl, config.mailFrom),
    publicUrl,
    clock,
    log,
    guard: { mayVisit, lookup: guardedLookup(mayVisit) },
    ...(pushServiceCa ? { extraCa: pushServiceCa } : {}),
  });
  const noticeScheduler = createNoticeScheduler({
    notices: createNoticesStore(db, { locking: noticeLocks }),
    mailer,
    notifier,
    clock,
    publicUrl,
    log,
    onRun: onNoticeRun,
  });
  const zoneOf = async (ownerId: string) => (await usersStore.findById(ownerId))?.timezone ?? 'UTC';
  const taskLists = createListsService({ lists: listsStore, clock });
  const tasks = createTasksService({
    tasks: createTasksStore(db, { locking: noticeLocks }),
    lists: listsStore,
    clock,
    zoneOf,
    onScheduleChange: noticeScheduler.poke,
  });
  const taskSync = createTaskSync({ changes: createTaskChangesStore(db), zoneOf, listsOf: listsStore.visible });
  const caldavReads = createCalDavReads(taskSync);
  const calendarTokens = createCalendarTokens(db, clock);
  const archivesStore = createArchivesStore(db, pageWordsWriter(storage.dialect));
  const bookmarkArchive = createArchiveService({
    store: archivesStore,
    archiver: createPageArchiver({ mayVisit }),
    clock,
    quotaBytes: config.archiveQuotaMb * 1024 * 1024,
    log,
  });
  const bookmarks = createBookmarksService({
    store: createBookmarksStore(db, storage.dialect),
    index: bookmarkIndex,
    imports: createBookmarkImportsStore(db),
    clock,
    importBatch: IMPORT_BATCH[storage.dialect],
    onCreated: bookmarkArchive.afterSave,
  });
  const linkPreviews = createLinkPreviews({ allowPrivate: config.previewAllowPrivate });
  const apiTokens = createApiTokensService({ store: createApiTokensStore(db), clock });
  const tmpDir = path.join(config.dataDir, 'tmp');
  const catalogueLoads = createCatalogueLoads({ clock, sharing: loadSharing });
  const bookText = config.calibreLibrary
    ? createBookText({ libraryFolder: config.calibreLibrary, file: path.join(config.dataDir, BOOK_TEXT_FILE), log })
    : undefined;
  const books = createBooksService({
    catalogue,
    tmpDir,
    loads: catalogueLoads,
    filesServed: config.calibreLibrary !== undefined,
    ...(bookText ? { bookText } : {}),
  });
  const libraryFiles = createLibraryFiles(config.calibreLibrary ?? null);
  const eReaderDevices = createEReaderDevicesStore(db, clock);
  const sendToDevice = createSendToDevice({
    devices: eReaderDevices,
    books,
    files: libraryFiles,
    mailer,
    delivery: config.smtpUrl ? 'sent' : 'outbox',
  });
  const coverThumbnails = createCoverThumbnails({ cacheDir: path.join(config.dataDir, 'covers'), log });
  const positions = createPositionsStore(db);
  const reading = createReadingService({ positions, books, clock });
  const koreader = createKoreaderService({
    documents: createKoreaderStore(db),
    positions,
    documentIds: createDocumentIds({ db, books, files: libraryFiles }),
    clock,
  });
  const library = config.calibreLibrary
    ? createLibraryWatcher({ folder: config.calibreLibrary, books, loads: catalogueLoads, tmpDir, clock, log, ...(bookText ? { bookText } : {}) })
    : null;

  const jobs: Job[] = [
    { name: 'notice scheduler', start: noticeScheduler.start, stop: noticeScheduler.stop },
    sessionPruningJob(auth, log),
    bookmarkArchive.job,
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
      syncKeyAuth: createSyncKeyAuth({ appPasswords, logins }),
      administrators: accounts,
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
    /** CalDAV over the tasks (caldav/). */
    caldav: { reads: caldavReads, writes: createCalDavWrites({ sync: taskSync, tasks, clock, objectNamed: caldavReads.objectNamed }) },
    taskLists,
    bookmarks,
    /** Kept copies of bookmarked pages. */
    bookmarkArchive,
    articlesToRead: createArticlesToRead(archivesStore),
    linkPreviews,
    books,
    bookSearchPreferences: createBookSearchPreferencesStore(db, clock),
    shelves: createShelvesService({
      store: createShelvesStore(db),
      books,
      clock,
      filesServed: config.calibreLibrary !== undefined,
      progressOf: reading.percentages,
    }),
    reading,
    koreader,
    /** The catalogue itself, for the state of its search index (health). */
    catalogue: { indexStatus: () => catalogue.indexStatus() },
    catalogueLoads,
    /** The Calibre library folder's watcher, when `CALIBRE_LIBRARY` is set. */
    library,
    /** The books' files and covers in the library folder; none without `CALIBRE_LIBRARY`. */
    libraryFiles,
    coverThumbnails,
    /** The user's e-reader addresses, and books mailed to them. */
    eReaderDevices,
    sendToDevice,
    /** Notices beyond mail: the users' Web Push devices and ntfy topics, and the Done links. */
    notify: { channels, notifier, doneTokens, vapidPublicKey: vapid.publicKey },
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
