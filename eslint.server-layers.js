import fs from 'node:fs';

/**
 * The server's layers, lowest first: the shared base, then the features, then what puts them
 * together. A file imports only from its own layer or below; a feature imports only features of a
 * lower rank, and only through the modules they name public here (so `auth` builds on `users`,
 * never the reverse, and no two features import each other); a migration imports nothing of the
 * application but the storage types, so that it stays as it ran. eslint.config.js turns this into
 * import-x's no-restricted-paths zones.
 */

/** Files and folders of server/src that know no feature: anything may import them. */
export const BASE = [
  'clock.ts',
  'config.ts',
  'control-characters.ts',
  'errors.ts',
  'http',
  'job.ts',
  'logger.ts',
  'mail',
  'notify',
  'search',
  'secret-tokens.ts',
  'server-files.ts',
  'storage',
  'types',
];

/**
 * The features by rank, lowest first, each with the modules that features of a higher rank may
 * import from it (paths inside its folder). Features of one rank import nothing from each other.
 */
export const FEATURE_RANKS = [
  { users: ['accounts.service.ts', 'invitations.store.ts', 'user-events.ts', 'users.store.ts'] },
  { auth: ['authenticate.ts', 'auth.service.ts', 'calendar-tokens.ts', 'oidc/identities.store.ts'] },
  { bookmarks: ['archive/articles-to-read.ts'], books: ['books.service.ts', 'library/book-formats.ts', 'library/download-name.ts', 'library/library.files.ts'], tasks: ['task-sync.ts', 'tasks.service.ts'] },
  { admin: [], shelves: ['shelves.service.ts'], reading: [] },
  { opds: [], caldav: [] },
];

/** What builds and runs the whole: nothing below imports it. Tests and test helpers sit here too. */
export const TOP = ['app.ts', 'main.ts', 'services.ts', 'cli', 'test'];

/** What a migration may import from the application: the types of the storage it writes. */
export const MIGRATION_IMPORTS = ['storage/schema.ts', 'storage/database.ts'];


const SRC = './server/src';
const at = (name) => `${SRC}/${name}`;
const featureNames = FEATURE_RANKS.flatMap(Object.keys);
const higherThan = (rank) => FEATURE_RANKS.slice(rank + 1).flatMap(Object.keys);

// Every file and folder of server/src has its layer, so that none escapes the rule unseen.
const unplaced = fs
  .readdirSync(new URL('./server/src/', import.meta.url))
  .filter((name) => !name.endsWith('.test.ts') && ![...BASE, ...featureNames, ...TOP].includes(name));
if (unplaced.length > 0) throw new Error(`server/src/${unplaced.join(', ')} has no layer: place it in eslint.server-layers.js`);

/** The zones of import-x/no-restricted-paths that say the above. */
export const serverZones = [
  {
    target: BASE.map(at),
    from: [...featureNames, ...TOP].map(at),
    message: 'The shared base (storage/, http/, errors.ts, …) must not know the features or what builds the app.',
  },
  {
    target: featureNames.map(at),
    from: TOP.map(at),
    message: 'A feature must not import services.ts, app.ts, main.ts, cli/ or test/: they build on it.',
  },
  ...FEATURE_RANKS.flatMap((features, rank) =>
    Object.entries(features).flatMap(([feature, publicModules]) => [
      {
        target: featureNames.filter((other) => other !== feature && !higherThan(rank).includes(other)).map(at),
        from: at(feature),
        message: `${feature}/ is of the same or a higher rank: a feature imports only features below it.`,
      },
      {
        target: higherThan(rank).map(at),
        from: at(feature),
        except: publicModules.map((module) => `./${module}`),
        message: `A feature above ${feature}/ may import from it only ${publicModules.join(', ') || 'nothing'}.`,
      },
    ]),
  ).filter((zone) => zone.target.length > 0),
  {
    target: `${SRC}/storage/migrations`,
    from: SRC,
    except: MIGRATION_IMPORTS.map((module) => `./${module}`),
    message: 'A migration is a snapshot: copy into it what it needs rather than import live code.',
  },
  {
    target: `${SRC}/storage/migrations`,
    from: './contract',
    message: 'A migration is a snapshot: copy into it what it needs rather than import the contract.',
  },
];
