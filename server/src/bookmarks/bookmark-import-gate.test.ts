import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { BookmarkImportReply } from '../../../contract/bookmarks.ts';
import { ErrorReply } from '../../../contract/errors.ts';
import { bookmarkFixture } from '../test/bookmark-import.ts';
import { registerUser, type TestApp, testAppOn, testDialects } from '../test/test-app.ts';

const BOUNDARY = '----organiser-slow-upload';

describe.each(testDialects)('imports running at once on %s', (dialect) => {
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    t = await testAppOn(dialect, { env: { ALLOW_SIGNUP: 'true' } });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    return t.close;
  });

  const importOver = async (token: string, file: string | Buffer) => {
    const form = new FormData();
    form.append('file', new Blob([file], { type: 'text/html' }), 'bookmarks.html');
    const response = await fetch(`${base}/bookmarks/import`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
    return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as unknown };
  };

  /** An upload whose file arrives only when `finish` is called: its import runs until then. */
  function slowUpload(token: string, file: Buffer) {
    const request = http.request(`${base}/bookmarks/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    });
    const reply = new Promise<{ status: number; body: unknown }>((resolve, reject) => {
      request.on('response', (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) }));
      });
      request.on('error', reject);
    });
    request.write(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="bookmarks.html"\r\n\r\n`);
    request.write(file.subarray(0, 100));
    return {
      finish() {
        request.end(Buffer.concat([file.subarray(100), Buffer.from(`\r\n--${BOUNDARY}--\r\n`)]));
        return reply;
      },
      abort() {
        reply.catch(() => {});
        request.destroy();
      },
    };
  }

  /** The user's import as the server reports it (issue 18): `receiving` once it holds its place. */
  const progressOf = async (token: string) => {
    const response = await fetch(`${base}/bookmarks/import/progress`, { headers: { authorization: `Bearer ${token}` } });
    return ((await response.json()) as { import: { phase: string } | null }).import?.phase;
  };
  /** Waits until the user's import is in `phase`: asking its progress takes no place, so nothing races it for one. */
  async function untilPhase(token: string, phase: string) {
    for (const started = Date.now(); Date.now() - started < 10_000; await new Promise((resolve) => setTimeout(resolve, 10))) {
      if ((await progressOf(token)) === phase) return;
    }
    throw new Error(`the import was not ${phase} within 10 s`);
  }

  it('runs one import per user (409 for a second) and two per server (503 with Retry-After for a third)', async () => {
    const [alice, bob, carol] = await Promise.all([registerUser(t.app), registerUser(t.app), registerUser(t.app)]);
    const file = bookmarkFixture('firefox-bookmarks.html');
    const alicesImport = slowUpload(alice.idToken, file);
    await untilPhase(alice.idToken, 'receiving');
    const second = await importOver(alice.idToken, 'not a bookmarks file');
    expect(ErrorReply.parse(second.body)).toEqual({
      statusCode: 409,
      error: 'Conflict',
      message: 'An import of yours is already running: wait for it to finish, then import again',
    });

    const bobsImport = slowUpload(bob.idToken, file);
    await untilPhase(bob.idToken, 'receiving');
    const third = await importOver(carol.idToken, 'not a bookmarks file');
    expect(third.status).toBe(503);
    expect(third.retryAfter).toBe('30');
    expect(ErrorReply.parse(third.body).message).toBe('The server is busy with other imports: try again in 30 seconds');

    const alicesReply = await alicesImport.finish();
    expect(alicesReply.status).toBe(200);
    expect(BookmarkImportReply.parse(alicesReply.body).imported).toBe(8);
    // An upload broken off frees its place too.
    bobsImport.abort();
    await untilPhase(bob.idToken, 'failed');
    expect((await importOver(carol.idToken, 'not a bookmarks file')).status).toBe(400);
    expect(BookmarkImportReply.parse((await importOver(carol.idToken, file)).body).imported).toBe(8);
  });
});
