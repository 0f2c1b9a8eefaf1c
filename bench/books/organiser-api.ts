import { once } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream } from 'node:stream/web';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RunningServer } from '../../web/e2e/server.ts';

const ACCOUNT = { email: 'bench@example.org', password: 'benchmark password' };

/** The benchmark's account: the first sign-up, which needs no invitation. */
export async function signUp(server: RunningServer): Promise<string> {
  const response = await fetch(`${server.baseUrl}/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...ACCOUNT, displayName: 'Bench' }),
  });
  return ((await response.json()) as { idToken: string }).idToken;
}

/** A fresh token for the account: a load of a million books outlasts the first one's 15 minutes. */
export async function signIn(server: RunningServer): Promise<string> {
  const response = await fetch(`${server.baseUrl}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ACCOUNT),
  });
  if (response.status !== 200) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { idToken: string }).idToken;
}

/**
 * Replaces the catalogue with a file (`POST /api/books/index`) and times it to the reply. The
 * reply comes once every book is written, which at a million books can take longer than fetch
 * waits for headers (300 s), so the form goes out over `http.request`, which does not give up.
 */
export async function importFile(server: RunningServer, token: string, file: string) {
  const form = new FormData();
  form.append('name', 'replace');
  form.append('file', await fs.openAsBlob(file), path.basename(file));
  const encoded = new Response(form);
  const started = performance.now();
  const request = http.request(`${server.baseUrl}/api/books/index`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': encoded.headers.get('content-type') ?? '' },
  });
  const responded = once(request, 'response') as Promise<[http.IncomingMessage]>;
  await pipeline(Readable.fromWeb(encoded.body as ReadableStream<Uint8Array>), request);
  const [response] = await responded;
  const text = await new Response(Readable.toWeb(response) as ReadableStream<Uint8Array>).text();
  const seconds = (performance.now() - started) / 1000;
  const reply = JSON.parse(text) as { total_count: number; error_count: number };
  if (response.statusCode !== 200 || reply.error_count > 0) throw new Error(`import failed: ${response.statusCode} ${text}`);
  return { seconds, books: reply.total_count };
}

type IndexStatus = { state: string; books?: number; from?: 'file' | 'database' };

async function indexStatus(server: RunningServer): Promise<IndexStatus | undefined> {
  return ((await (await fetch(`${server.baseUrl}/api/health`)).json()) as { search_index?: IndexStatus }).search_index;
}

/** Seconds until the server's word index holds the whole catalogue (the index before answers meanwhile). */
export async function searchIndexBuilt(server: RunningServer, books: number): Promise<number> {
  return (await searchIndexReady(server, books)).seconds;
}

/** The same, and where the index came from: its file on disk or a build from the database. */
export async function searchIndexReady(server: RunningServer, books: number) {
  const { seconds, status } = await indexStatusWhen(server, (status) => status?.state === 'ready' && status.books === books);
  return { seconds, from: status?.from };
}

/**
 * Seconds until a load has written its books: the index of the new catalogue is then built (or,
 * a small one, already built) while the load's reply waits for it.
 */
export async function booksWritten(server: RunningServer, books: number): Promise<number> {
  return (await indexStatusWhen(server, (status) => status?.state === 'building' || (status?.state === 'ready' && status.books === books))).seconds;
}

async function indexStatusWhen(server: RunningServer, reached: (status: IndexStatus | undefined) => boolean) {
  const started = performance.now();
  for (;;) {
    const status = await indexStatus(server);
    if (reached(status)) return { seconds: (performance.now() - started) / 1000, status };
    if (status?.state === 'failed') throw new Error('the word index failed to build');
    await sleep(50);
  }
}

/** Asks a search until it is answered: a server preparing its index refuses it with a 503 meanwhile. */
export async function searchAnswered(server: RunningServer, token: string, query: string): Promise<void> {
  for (;;) {
    const response = await fetch(`${server.baseUrl}${query}`, { headers: { authorization: `Bearer ${token}` } });
    await response.arrayBuffer();
    if (response.status === 200) return;
    if (response.status !== 503) throw new Error(`search ${query}: ${response.status}`);
    await sleep(20);
  }
}
