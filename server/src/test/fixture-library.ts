import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HealthReply } from '../../../contract/health.ts';
import type { Dialect } from '../storage/database.ts';
import { type TestApp, testAppOn } from './test-app.ts';

/** The small library calibre made (books/fixtures/library/): books 1 to 6. */
export const FIXTURE_LIBRARY = path.join(import.meta.dirname, '../books/fixtures/library');

/**
 * The real app on a fresh database, following a copy of the fixture library (`CALIBRE_LIBRARY`),
 * once its first load has ended. `library` is the copy, which the test may change; closing removes it.
 */
export async function appWithFixtureLibrary(dialect: Dialect, env: Record<string, string> = {}): Promise<TestApp & { library: string }> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'organiser-library-'));
  const library = path.join(work, 'Calibre Library');
  fs.cpSync(FIXTURE_LIBRARY, library, { recursive: true });
  const t = await testAppOn(dialect, { env: { CALIBRE_LIBRARY: library, DATA_DIR: path.join(work, 'data'), ...env } });
  await t.app.ready();
  // The first load's transaction holds SQLite's one writer: a sign-up waits for its end.
  for (const until = Date.now() + 30_000; ; ) {
    const health = HealthReply.parse((await t.app.inject({ url: '/api/health' })).json());
    if (health.library?.last_load?.status === 'ok') break;
    if (Date.now() > until) throw new Error(`the library never loaded: ${JSON.stringify(health.library)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    ...t,
    library,
    async close() {
      await t.close();
      fs.rmSync(work, { recursive: true, force: true });
    },
  };
}
