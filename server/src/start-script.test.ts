import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS } from './test/server-process.ts';

describe('npm start', () => {
  it('gives Node the flags the tests and benchmarks run the server with', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '../../package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(manifest.scripts.start).toContain(`node ${SERVER_NODE_FLAGS.join(' ')} server/src/main.ts`);
  });
});
