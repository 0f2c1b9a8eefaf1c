import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthReply } from '../../../contract/auth.ts';
import { freePort, killHard, type ServerProcess, startServerProcess } from '../test/server-process.ts';

/** Far more than a record may hold (4 MB), and more than the server could keep without it showing. */
const RECORD_MB = 128;
/**
 * What the server's peak resident memory may grow by while refusing such records: less than one
 * record, which held whole would add several times over (chunks, their join, the decoded string).
 * What it does grow by is the young generation V8 grows to as the first such upload's chunks
 * come in, and little at the next ones.
 */
const MAX_PEAK_GROWTH_MB = 100;
const BOUNDARY = 'organiser-memory-test';

/** A process's resident memory now and at its peak (Linux), in MB. */
function residentMb(pid: number): { now: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const mb = (name: string) => Number(status.match(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm'))?.[1]) / 1024;
  return { now: mb('VmRSS'), peak: mb('VmHWM') };
}

/** Starts the peak over from the present (Linux's clear_refs), so that it measures what follows. */
const resetPeak = (pid: number) => fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');

/** An index upload with name=replace around the file's bytes, made as it is sent. */
async function* uploadBody(file: Iterable<Buffer>): AsyncGenerator<Buffer> {
  yield Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="name"\r\n\r\nreplace\r\n` +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="index"\r\n\r\n`,
  );
  yield* file;
  yield Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
}

/** `head`, then RECORD_MB of "x" with no newline, then `tail`. */
function* hugeRecord(head: string, tail: string): Generator<Buffer> {
  yield Buffer.from(head);
  const megabyte = Buffer.alloc(1024 * 1024, 'x');
  for (let sent = 0; sent < RECORD_MB; sent++) yield megabyte;
  yield Buffer.from(tail);
}

/** Sends the upload, stopping as soon as the server answers (a refusal comes before the body ends). */
function send(server: ServerProcess, token: string, body: AsyncGenerator<Buffer>): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${server.baseUrl}/api/books/index`, {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, authorization: `Bearer ${token}` },
    });
    let answered = false;
    request.on('response', (response) => {
      answered = true;
      let text = '';
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => {
        request.destroy();
        resolve({ status: response.statusCode ?? 0, text });
      });
    });
    request.on('error', (error) => {
      if (!answered) reject(error);
    });
    (async () => {
      for await (const chunk of body) {
        if (answered || request.destroyed) return;
        if (!request.write(chunk)) await new Promise((drained) => request.once('drain', drained));
      }
      request.end();
    })().catch(() => {});
  });
}

describe('memory while refusing an oversize record', () => {
  let server: ServerProcess;
  let token: string;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'organiser-memory-'));

  beforeAll(async () => {
    server = await startServerProcess({ PORT: String(await freePort()), DATA_DIR: dataDir });
    const registered = await fetch(`${server.baseUrl}/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.org', password: 'a long enough password', displayName: 'Admin' }),
    });
    token = AuthReply.parse(await registered.json()).idToken;
    // A load of a real catalogue first, so that what it needs once is in the baseline.
    const catalogue = fs.readFileSync(path.join(import.meta.dirname, 'fixtures/calibre/library.json'));
    expect((await send(server, token, uploadBody([catalogue]))).status).toBe(200);
    // The word index is built again after the load, on a thread that then ends: not this test's memory.
    const indexed = async () => ((await (await fetch(`${server.baseUrl}/api/health`)).json()) as { search_index?: { state: string } }).search_index?.state;
    while ((await indexed()) !== 'ready') await new Promise((resolve) => setTimeout(resolve, 50));
  }, 60_000);
  afterAll(async () => {
    if (server) await killHard(server.child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it.each([
    ['a Calibre JSON element', '[{"id": 1, "title": "', '"}]'],
    ['a JSON Lines line', '{"id": "1", "author": "", "path": "", "formats": [], "title": "', '"}\n'],
    ['an XML record', '<calibredb><record><id>1</id><title>', '</title></record></calibredb>'],
    ['a CSV row', 'id,title,authors\n1,', ',Someone\n'],
    ['a CSV header with no newline', '', ''],
  ])(`refuses ${RECORD_MB} MB in %s with a 413, its peak memory growing less than ${MAX_PEAK_GROWTH_MB} MB`, async (_, head, tail) => {
    const pid = server.child.pid!;
    resetPeak(pid);
    const before = residentMb(pid).now;
    const reply = await send(server, token, uploadBody(hugeRecord(head, tail)));
    expect(residentMb(pid).peak - before).toBeLessThan(MAX_PEAK_GROWTH_MB);
    expect(reply.status, reply.text).toBe(413);
    expect(reply.text).toMatch(/larger than 4 MB/);
  }, 30_000);
});
