import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { HEALTH_STALL_MS, healthSummary, watchHealth } from '../test/health-monitor.ts';
import { type RawConnection, openConnection, trickleBody } from '../test/raw-http.ts';
import { type ServerProcess, startServerProcess } from '../test/server-process.ts';
import { signUp } from '../test/server-accounts.ts';

const MAX_CONNECTIONS = 200;
const PROBES = 30;

/**
 * docs/budgets.md "health under attack", at a size CI can run: the real server process, its connection
 * cap set to 200, and /api/health timed on connections of its own while each attack runs.
 */
describe('health under attack', () => {
  let server: ServerProcess;
  let port: number;
  let attackers: RawConnection[] = [];

  beforeAll(async () => {
    server = await startServerProcess({ MAX_CONNECTIONS: String(MAX_CONNECTIONS), ALLOW_SIGNUP: 'true' });
    port = Number(server.env.PORT);
  });
  afterAll(async () => {
    for (const connection of attackers) connection.socket.destroy();
    await server.stop();
  });

  /** Health probed one after another; every probe answers within the budget. */
  async function expectHealthFast() {
    const health = await watchHealth(port);
    await health.reached(PROBES);
    const probes = await health.stop();
    expect(probes.filter((probe) => probe.status !== 200 || probe.ms > HEALTH_STALL_MS), `${healthSummary(probes)}\n${server.logs()}`).toEqual([]);
  }

  it(`answers while ${2 * MAX_CONNECTIONS} connections send a login body a byte a second, twice the cap`, async () => {
    attackers = await Promise.all(Array.from({ length: 2 * MAX_CONNECTIONS }, () => trickleBody(port, '/auth/login', 1000)));
    await sleep(500);
    await expectHealthFast();
    const open = attackers.filter((connection) => !connection.socket.destroyed).length;
    expect(open).toBeLessThanOrEqual(MAX_CONNECTIONS);
  }, 60_000);

  it(`answers while ${3 * MAX_CONNECTIONS} connections are opened and left silent`, async () => {
    attackers.push(...(await Promise.all(Array.from({ length: 3 * MAX_CONNECTIONS }, () => openConnection(port)))));
    await expectHealthFast();
  }, 60_000);

  it('answers while searches with control characters and words too long for PostgreSQL keep coming', async () => {
    const { idToken } = await signUp(server.baseUrl, { email: 'attacker@example.org', displayName: 'a\u0000b' });
    const headers = { authorization: `Bearer ${idToken}` };
    let attacking = true;
    const statuses = new Set<number>();
    const attack = (async () => {
      while (attacking) {
        const response = await fetch(`${server.baseUrl}/api/books?keys=${encodeURIComponent(`${'㍿'.repeat(300)}\u0000`)}`, { headers });
        statuses.add(response.status);
        await response.arrayBuffer();
      }
    })();
    await expectHealthFast();
    attacking = false;
    await attack;
    expect([...statuses]).toEqual([200]);
  }, 60_000);
});
