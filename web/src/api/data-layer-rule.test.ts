import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const eslint = new ESLint({ cwd: root });

/** The rules that `code`, written as the file at `file` (from the repository root), breaks. */
async function brokenRules(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.map((message) => message.ruleId ?? message.message);
}

describe('the one data layer (eslint.config.js)', { timeout: 120_000 }, () => {
  it('refuses a component that fetches by hand', async () => {
    const code = "export const load = () => fetch('/schedule');\n";
    expect(await brokenRules('web/src/features/tasks/task-list-page.tsx', code)).toContain('no-restricted-globals');
  });

  it('refuses an event stream or a request opened by hand, on window too', async () => {
    const code = "export const follow = () => new EventSource('/x');\nexport const send = () => window.fetch('/x');\nexport const upload = () => new XMLHttpRequest();\n";
    expect(await brokenRules('web/src/lib/progress.ts', code)).toEqual(['no-restricted-globals', 'no-restricted-properties', 'no-restricted-globals']);
  });

  it('allows the data layer its own requests', async () => {
    const code = "export const send = (path: string) => fetch(path);\n";
    expect(await brokenRules('web/src/api/http-client.ts', code)).toEqual([]);
  });
});
