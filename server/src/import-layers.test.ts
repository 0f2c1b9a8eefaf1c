import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: root });

/** The rules that `code`, written as the file at `file` (from the repository root), breaks. */
async function brokenRules(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.map((message) => message.ruleId ?? message.message);
}

describe('the server import rule (eslint.server-layers.js)', { timeout: 120_000 }, () => {
  it('refuses an import from users/ to auth/, which builds on it', async () => {
    expect(await brokenRules('server/src/users/users.store.ts', "export { createAuthService } from '../auth/auth.service.ts';\n")).toContain(
      'import-x/no-restricted-paths',
    );
  });

  it('refuses the shared base importing a feature', async () => {
    const code = "import type { BooksService } from '../books/books.service.ts';\nexport type Books = BooksService;\n";
    expect(await brokenRules('server/src/storage/schema.ts', code)).toContain('import-x/no-restricted-paths');
  });

  it('refuses a migration importing live code', async () => {
    const code = "import { linkKey } from '../../bookmarks/link-key.ts';\nexport const key = linkKey;\n";
    expect(await brokenRules('server/src/storage/migrations/0014-api-tokens-and-link-keys.ts', code)).toContain('import-x/no-restricted-paths');
  });

  it("refuses a feature importing another's internals, and allows its public module", async () => {
    expect(await brokenRules('server/src/opds/opds.feed.ts', "export { booksRoutes } from '../books/books.routes.ts';\n")).toContain(
      'import-x/no-restricted-paths',
    );
    const allowed = "import type { BooksService } from '../books/books.service.ts';\nexport type Books = BooksService;\n";
    expect(await brokenRules('server/src/opds/opds.feed.ts', allowed)).toEqual([]);
  });

  it('refuses an import cycle', async () => {
    // services.ts imports clock.ts: clock.ts importing it back closes a cycle.
    const code = "import { createServices } from './services.ts';\nexport const build = createServices;\n";
    expect(await brokenRules('server/src/clock.ts', code)).toContain('import-x/no-cycle');
  });
});
