import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Logger } from '../../logger.ts';
import { bookTextSearch } from './book-text-file.ts';
import { createBookText } from './book-text.ts';
import { CALIBRE_FULL_TEXT_DB } from './calibre-text.ts';

const FIXTURE_FULL_TEXT = path.join(import.meta.dirname, '../fixtures/library-full-text', CALIBRE_FULL_TEXT_DB);
const quiet: Logger = { info: () => {}, warn: () => {}, error: () => {} };

describe("the books' text kept up to date", () => {
  let library: string;
  let file: string;
  beforeEach(() => {
    library = fs.mkdtempSync(path.join(os.tmpdir(), 'organiser-book-text-job-'));
    file = path.join(library, 'data', 'book-text.sqlite');
    fs.mkdirSync(path.dirname(file));
  });
  afterEach(() => fs.rmSync(library, { recursive: true, force: true }));

  it('costs no file for a library calibre never indexed, and is not searchable', async () => {
    const text = createBookText({ libraryFolder: library, file, log: quiet });
    await text.update();
    expect(fs.existsSync(file)).toBe(false);
    expect(text.searchable()).toBe(false);
    await text.stop();
  });

  it('reads calibre’s text on a thread, says so, and reads it again once after a change during a read', async () => {
    fs.copyFileSync(FIXTURE_FULL_TEXT, path.join(library, CALIBRE_FULL_TEXT_DB));
    const text = createBookText({ libraryFolder: library, file, log: quiet });
    const first = text.update();
    const again = text.update();
    expect(text.update()).toBe(again);
    await Promise.all([first, again]);
    expect(text.searchable()).toBe(true);
    expect(text.version()).toBe(1);
    const search = bookTextSearch(file)!;
    expect(search.find(['organiser']).sort()).toEqual(['1', '2', '3']);
    search.close();
    await text.stop();
  });
});
