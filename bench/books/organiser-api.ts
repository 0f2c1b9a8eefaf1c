import fs from 'node:fs';
import path from 'node:path';
import type { RunningServer } from '../../web/e2e/server.ts';

/** The benchmark's account: the first sign-up, which needs no invitation. */
export async function signUp(server: RunningServer): Promise<string> {
  const response = await fetch(`${server.baseUrl}/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'bench@example.org', password: 'benchmark password', displayName: 'Bench' }),
  });
  return ((await response.json()) as { idToken: string }).idToken;
}

/** Replaces the catalogue with a file (`POST /api/books/index`) and times it to the reply. */
export async function importFile(server: RunningServer, token: string, file: string) {
  const form = new FormData();
  form.append('name', 'replace');
  form.append('file', await fs.openAsBlob(file), path.basename(file));
  const started = performance.now();
  const response = await fetch(`${server.baseUrl}/api/books/index`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const reply = (await response.json()) as { total_count: number; error_count: number };
  const seconds = (performance.now() - started) / 1000;
  if (response.status !== 200 || reply.error_count > 0) throw new Error(`import failed: ${JSON.stringify(reply)}`);
  return { seconds, books: reply.total_count };
}
