import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookmarkFixture, bookmarksByLink as byLink, importBookmarks, readFileLinks } from '../test/bookmark-import.ts';
import { type BookmarksClient, bookmarksClient } from '../test/bookmarks-client.ts';
import { runFirefox } from '../test/firefox.ts';
import { registerUser, type TestApp, testAppOn } from '../test/test-app.ts';

const firefoxInstalled = (() => {
  try {
    execFileSync(process.env.FIREFOX ?? 'firefox-esr', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

// As Chromium for the end-to-end tests: skipped, saying so, outside CI; in CI (`CI=true`) it must run.
const skipped = !firefoxInstalled && process.env.CI !== 'true';
if (skipped) console.warn('bookmark-firefox-round-trip.programs.test.ts skipped: firefox-esr is not installed (apt-get install firefox-esr, or set FIREFOX)');

/** Where each link of a file sits, as a browser that imports it sees it: tags in any order. */
async function places(file: Buffer | string) {
  const links = await readFileLinks(Buffer.from(file));
  return new Map(
    links.map(({ link, title, root, folders, keyword, tags, added, modified }) => [link, { title, root, folders, keyword, tags: tags.toSorted(), added, modified }]),
  );
}

/**
 * The export read back by a real Firefox (issue 37): Firefox imports our file on a fresh profile's
 * first start and writes its bookmarks out as it quits; that file must hold the same tree, and
 * import back to the same bookmarks. Firefox is the slow part (some 15 s), and what it checks does
 * not depend on the database, which bookmark-import.test.ts covers on both.
 */
describe.skipIf(skipped)('the export through a real Firefox (skipped: firefox-esr is not installed)', () => {
  let t: TestApp;
  let alice: BookmarksClient;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'organiser-firefox-round-trip-'));
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  beforeAll(async () => {
    t = await testAppOn('sqlite', { env: { ALLOW_SIGNUP: 'true' } });
    alice = bookmarksClient(t.app, (await registerUser(t.app)).idToken);
    return t.close;
  });

  it('keeps folders, the toolbar, tags, keywords and dates, and imports back to the same bookmarks', { timeout: 180_000 }, async () => {
    await importBookmarks(t.app, alice, bookmarkFixture('firefox-bookmarks.html'));
    const exported = (await alice.inject('GET', '/bookmarks/export')).body;
    const ours = path.join(work, 'organiser-export.html');
    fs.writeFileSync(ours, exported);

    const firefoxWrote = await runFirefox({ bookmarks: ours, prefs: { 'browser.bookmarks.autoExportHTML': true } }, (profile) =>
      fs.readFileSync(path.join(profile, 'bookmarks.html'), 'utf8'),
    );
    expect(firefoxWrote, 'Firefox wrote no bookmarks of its own').not.toBe(exported);
    const inFirefox = await places(firefoxWrote);
    expect(inFirefox.get('https://sqlite.org/fts5.html')).toMatchObject({ root: '', folders: ['Development', 'Databases'], tags: ['search', 'sqlite'] });
    expect(inFirefox.get('https://nodejs.org/docs/latest/api/')).toMatchObject({ folders: ['Development'], keyword: 'nodedocs', tags: ['node'] });
    expect(inFirefox.get('https://news.ycombinator.com/')).toMatchObject({ root: 'toolbar', folders: [] });
    expect(inFirefox).toEqual(await places(exported));

    const carol = bookmarksClient(t.app, (await registerUser(t.app)).idToken);
    expect(await importBookmarks(t.app, carol, firefoxWrote)).toMatchObject({ imported: 8, skipped: 0, errors: [] });
    const comparable = async (client: BookmarksClient) =>
      [...(await byLink(client)).values()].map(({ id: _id, tags, ...rest }) => ({ ...rest, tags: tags.toSorted() })).sort((a, b) => a.link.localeCompare(b.link));
    expect(await comparable(carol)).toEqual(await comparable(alice));
    const again = (await carol.inject('GET', '/bookmarks/export')).body;
    expect(await places(again)).toEqual(await places(exported));
  });
});
