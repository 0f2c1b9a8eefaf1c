import { createHash } from 'node:crypto';
import { partialMd5 } from '../../server/src/reading/partial-md5.ts';
import { percentile } from '../lib/measure.ts';
import { READER } from './reader-setup.ts';

/** One request's kind in a round: the PUT, and the floors it is timed beside over the same HTTP client. */
export const KOSYNC_CALLS = ['put', 'auth', 'healthcheck', 'health'] as const;
export type KosyncCall = (typeof KOSYNC_CALLS)[number];

export type Latency = { p50: number; p99: number; requests: number; errors: number };

const ACCEPT = { accept: 'application/vnd.koreader.v1+json' };

/** An app password for the reader, and the headers KOReader signs every sync request with. */
export async function kosyncHeaders(baseUrl: string, token: string): Promise<Record<string, string>> {
  const response = await fetch(`${baseUrl}/api/users/me/app-passwords`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Bench e-reader' }),
  });
  if (response.status !== 200) throw new Error(`making an app password failed: ${response.status}`);
  const { password } = (await response.json()) as { password: string };
  return { ...ACCEPT, 'x-auth-user': READER.email, 'x-auth-key': createHash('md5').update(password).digest('hex') };
}

/**
 * One client, one request at a time, `count` of each kind in turn, so that the PUT and its floors
 * share the moments the machine was busy: the PUT of the library file's progress (KOReader's id
 * of the EPUB, so the book's reading position is written too), `GET /kosync/users/auth` (the same
 * credential check, nothing written), `GET /kosync/healthcheck` (the same routes' framework, no
 * credential) and `GET /api/health`.
 */
export async function kosyncRound(baseUrl: string, headers: Record<string, string>, epubFile: string, count: number): Promise<Record<KosyncCall, Latency>> {
  const document = await partialMd5(epubFile);
  const times: Record<KosyncCall, number[]> = { put: [], auth: [], healthcheck: [], health: [] };
  const errors: Record<KosyncCall, number> = { put: 0, auth: 0, healthcheck: 0, health: 0 };
  const requests: Record<KosyncCall, (i: number) => Promise<Response>> = {
    put: (i) =>
      fetch(`${baseUrl}/kosync/syncs/progress`, {
        method: 'PUT',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ document, progress: `/body/DocFragment[${(i % 40) + 1}]/body/p[3]/text().0`, percentage: (i % 1000) / 1000, device: 'Kobo Libra 2', device_id: 'bench-device' }),
      }),
    auth: () => fetch(`${baseUrl}/kosync/users/auth`, { headers }),
    healthcheck: () => fetch(`${baseUrl}/kosync/healthcheck`, { headers: ACCEPT }),
    health: () => fetch(`${baseUrl}/api/health`),
  };
  for (let i = 0; i < count; i += 1) {
    for (const call of KOSYNC_CALLS) {
      const sent = performance.now();
      const response = await requests[call](i);
      await response.arrayBuffer();
      times[call].push(performance.now() - sent);
      if (response.status !== 200) errors[call] += 1;
    }
  }
  const latency = (call: KosyncCall): Latency => {
    const sorted = times[call].sort((a, b) => a - b);
    return { p50: +percentile(sorted, 50).toFixed(2), p99: +percentile(sorted, 99).toFixed(2), requests: sorted.length, errors: errors[call] };
  };
  return { put: latency('put'), auth: latency('auth'), healthcheck: latency('healthcheck'), health: latency('health') };
}
