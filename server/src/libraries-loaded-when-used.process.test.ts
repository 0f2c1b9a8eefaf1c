import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { register, signUp } from './test/server-accounts.ts';
import { startServerProcess } from './test/server-process.ts';

const HOOK = path.join(import.meta.dirname, 'test/modules-loaded-hook.ts');

/** Libraries a feature loads when it is first used, each a few MB of memory held for good once loaded. */
const LOADED_WHEN_USED = ['sharp', 'nodemailer', 'xmlbuilder2', 'linkedom', '@mozilla/readability', 'sanitize-html'];
/** Libraries read in a thread of their own, which ends: the main thread keeps what was read, not the library. */
const READ_IN_A_THREAD = ['@zxcvbn-ts/language-common'];

describe('libraries of features not used yet', () => {
  it('are not loaded by the main thread of a server that has started, answered and taken a sign-up', { timeout: 60_000 }, async () => {
    const seen = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'organiser-modules-')), 'loaded.txt');
    const server = await startServerProcess({ NODE_OPTIONS: `--import=${HOOK}`, MODULES_LOADED_FILE: seen });
    try {
      // The list of common passwords has been read.
      const common = await register(server.baseUrl, { email: 'lazy@example.org', password: 'password123', displayName: 'Lazy' });
      expect(await common.json()).toMatchObject({ statusCode: 400, message: 'password: is one of the most common passwords; choose another' });
      await signUp(server.baseUrl, { email: 'lazy@example.org', displayName: 'Lazy' });
    } finally {
      await server.stop();
    }
    const loaded = fs.readFileSync(seen, 'utf8').split('\n');
    // The hook sees the server's own modules: it would see these libraries were they loaded.
    expect(loaded.some((url) => url.includes('/node_modules/fastify/'))).toBe(true);
    for (const library of [...LOADED_WHEN_USED, ...READ_IN_A_THREAD]) expect(loaded.filter((url) => url.includes(`/node_modules/${library}/`))).toEqual([]);
    fs.rmSync(path.dirname(seen), { recursive: true, force: true });
  });
});
