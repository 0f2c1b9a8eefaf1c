import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEALTH_STALL_MS, healthSummary, watchHealth } from '../test/health-monitor.ts';
import { type ServerProcess, startServerProcess } from '../test/server-process.ts';

const ADMIN = { email: 'admin@example.org', password: 'the administrator password', displayName: 'Admin' };
const FLOOD = { registrations: 100, concurrency: 20 };

/**
 * A flood of sign-ups from many addresses (TRUST_PROXY lets each request name its own) against
 * the real server process: registrations hash one at a time and the rest are refused at once,
 * so health answers promptly and the administrator's sign-in waits for no registration's hash.
 */
describe('a registration flood against a real server', () => {
  let server: ServerProcess;

  beforeAll(async () => {
    server = await startServerProcess({ ALLOW_SIGNUP: 'true', TRUST_PROXY: 'true' });
    const first = await post('/auth/register', ADMIN, '198.51.100.1');
    expect(first.status).toBe(200);
  });
  afterAll(async () => {
    await server?.stop();
  });

  function post(path: string, body: object, address: string) {
    return fetch(`${server.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
      body: JSON.stringify(body),
    });
  }

  async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; result: T }> {
    const started = performance.now();
    const result = await run();
    return { ms: performance.now() - started, result };
  }

  const registration = (name: string, address: string) =>
    post('/auth/register', { email: `${name}@example.org`, password: `the password of ${name}`, displayName: name }, address);

  const adminLogin = () =>
    timed(async () => (await post('/auth/login', { email: ADMIN.email, password: ADMIN.password }, '198.51.100.1')).status);

  it(`answers /api/health within ${HEALTH_STALL_MS} ms every time, and a sign-in waits for no registration's hash`, async () => {
    const usual = await adminLogin();
    expect(usual.result).toBe(200);

    const health = await watchHealth(Number(server.env.PORT));

    const statuses: number[] = [];
    const accountsOpenedAt: number[] = [];
    let next = 0;
    const flood = Promise.all(
      Array.from({ length: FLOOD.concurrency }, async () => {
        while (next < FLOOD.registrations) {
          const i = next++;
          const reply = await registration(`flood${i}`, `203.0.113.${i}`);
          statuses.push(reply.status);
          if (reply.status === 200) accountsOpenedAt.push(performance.now());
          if (reply.status === 503) expect(Number(reply.headers.get('retry-after'))).toBeGreaterThan(0);
        }
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const loginStarted = performance.now();
    const during = await adminLogin();
    const loginEnded = performance.now();
    await flood;
    const probes = await health.stop();

    expect(during.result).toBe(200);
    expect(statuses).toHaveLength(FLOOD.registrations);
    expect(statuses.filter((status) => status !== 200 && status !== 503)).toEqual([]);
    expect(statuses).toContain(200);
    expect(probes.length).toBeGreaterThan(10);
    expect(probes.filter((probe) => probe.status !== 200 || probe.ms > HEALTH_STALL_MS), healthSummary(probes)).toEqual([]);
    // A sign-in waits for no registration's hash: while it ran, the registration lane finished at most the hash it had under
    // way and the one after. (Its time is not compared: on a shared machine the CPU share of each hash varies tenfold.)
    const openedWhileSigningIn = accountsOpenedAt.filter((at) => at > loginStarted && at < loginEnded).length;
    expect(openedWhileSigningIn, `sign-in took ${Math.round(during.ms)} ms, ${Math.round(usual.ms)} ms alone`).toBeLessThanOrEqual(2);
  }, 60_000);
});
