import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

export type StandInRequest = { path: string; headers: http.IncomingHttpHeaders; body: Buffer };

/** How a stand-in answers a request: its status code. */
type Decide = (request: StandInRequest) => number;

async function listen(server: http.Server | https.Server, scheme: 'http' | 'https') {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function recording(decide: () => Decide, received: StandInRequest[]) {
  return (request: http.IncomingMessage, response: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const one = { path: new URL(request.url ?? '/', 'http://x').pathname, headers: request.headers, body: Buffer.concat(chunks) };
      received.push(one);
      response.writeHead(decide()(one)).end();
    });
  };
}

/** A self-signed certificate for 127.0.0.1, made by Debian's openssl: push services are https only. */
function selfSignedCertificate() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'push-stand-in-'));
  try {
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2',
      '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
      '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'),
    ], { stdio: 'ignore' });
    return { key: fs.readFileSync(path.join(dir, 'key.pem'), 'utf8'), cert: fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8') };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A Web Push service on a loopback https address: it records each request and answers with what
 * `setDecision` says (201 by default). `ca` is its certificate, for the server to trust.
 */
export async function startPushService() {
  const { key, cert } = selfSignedCertificate();
  const received: StandInRequest[] = [];
  let decide: Decide = () => 201;
  const server = https.createServer({ key, cert }, recording(() => decide, received));
  const origin = await listen(server, 'https');
  return {
    origin,
    ca: cert,
    received,
    setDecision(next: Decide) {
      decide = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type PushService = Awaited<ReturnType<typeof startPushService>>;

/** An ntfy server on a loopback http address: it records each POST and answers with `setDecision`'s status (200 by default). */
export async function startNtfy() {
  const received: StandInRequest[] = [];
  let decide: Decide = () => 200;
  const server = http.createServer(recording(() => decide, received));
  const origin = await listen(server, 'http');
  return {
    origin,
    received,
    setDecision(next: Decide) {
      decide = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type Ntfy = Awaited<ReturnType<typeof startNtfy>>;
