import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'server',
          include: ['server/src/**/*.test.ts'],
          exclude: ['server/src/**/*.load.test.ts'],
          environment: 'node',
          // Each file gets its own SQLite file and PostgreSQL schema; two cores run two files at once.
          fileParallelism: true,
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          // Health under attack: each file starts a real server and measures its answers, which
          // mean nothing while other test files share the two cores, so these run one at a time, alone.
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
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['web/e2e/**/*.test.ts'],
          environment: 'node',
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
