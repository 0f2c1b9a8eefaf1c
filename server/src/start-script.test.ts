import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_ENVIRONMENT, SERVER_NODE_FLAGS } from './test/server-process.ts';

describe('npm start', () => {
  it('gives Node the environment and flags the tests and benchmarks run the server with', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '../../package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const environment = Object.entries(SERVER_ENVIRONMENT).map(([name, value]) => `${name}=${value}`);
    expect(manifest.scripts.start).toContain(`${environment.join(' ')} node ${SERVER_NODE_FLAGS.join(' ')} server/src/main.ts`);
  });
});
