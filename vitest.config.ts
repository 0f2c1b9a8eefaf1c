import { defineConfig } from 'vitest/config';

/**
 * The test tiers. `npm run test:fast` runs `server` and `web` on SQLite alone, before a commit;
 * `npm test` runs every project, on PostgreSQL too when TEST_DATABASE_URL is set.
 * - server: unit and app-level tests (the app built in-process on a real database);
 * - process: whole-process tests, each starting the built server as `npm start` does (`*.process.test.ts`);
 * - programs: tests that drive other programs — Firefox, calibre, epubcheck, CalDAV clients (`*.programs.test.ts`);
 * - load: health under attack (`*.load.test.ts`), one file at a time;
 * - web: the client's unit tests;
 * - e2e: the built client and a real server in Debian's Chromium.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'server',
          include: ['server/src/**/*.test.ts'],
          exclude: ['server/src/**/*.load.test.ts', 'server/src/**/*.process.test.ts', 'server/src/**/*.programs.test.ts'],
          environment: 'node',
          // Each file gets its own SQLite file and PostgreSQL schema, so files run side by side.
          // Vitest's default is a worker fewer than the cores, one on two; these files mostly wait
          // on the databases, so three share two cores well.
          fileParallelism: true,
          maxWorkers: 3,
          // A worker's files share its modules, loaded once: the fast tier took 196 s re-importing
          // the app for each of its 141 files, 102 s without. So a file leaves nothing global behind
          // (timers, spies, environment), and each builds its own app.
          isolate: false,
          // A safety net, not a budget: a busy machine may run a test several times slower.
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'process',
          include: ['server/src/**/*.process.test.ts'],
          environment: 'node',
          // These files wait on the servers they start: three at a time, as `server` runs.
          fileParallelism: true,
          maxWorkers: 3,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          // Run beside `process` in one vitest: their files wait on the programs they drive.
          name: 'programs',
          include: ['server/src/**/*.programs.test.ts'],
          environment: 'node',
          fileParallelism: true,
          maxWorkers: 3,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          // Each file starts a real server and measures how it answers while it is attacked, which
          // means little while other files share the cores, so these run one at a time.
          name: 'load',
          include: ['server/src/**/*.load.test.ts'],
          environment: 'node',
          fileParallelism: false,
          testTimeout: 240_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'web',
          include: ['web/src/**/*.test.{ts,tsx}'],
          environment: 'node',
          // As `server`: a worker's files share its modules.
          isolate: false,
          // Run beside `server` in one vitest, which asks both for the same number of workers.
          maxWorkers: 3,
        },
      },
      {
        test: {
          // Each file starts its own server and browser on the one built client (web/dist). Two at
          // a time: with three, Chromium kept both cores busy all the time (98 % in a clean-clone
          // CI), and pages waited long enough on the machine that tests timed out.
          name: 'e2e',
          include: ['web/e2e/**/*.test.ts'],
          environment: 'node',
          fileParallelism: true,
          maxWorkers: 2,
          // A page under load may take longer than expect.poll's 5 s to show a list: a safety net.
          expect: { poll: { timeout: 30_000 } },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
