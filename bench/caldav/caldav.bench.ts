import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import type { Dialect } from '../../server/src/storage/dialect.ts';
import { createTaskChangesStore } from '../../server/src/tasks/task-changes.store.ts';
import { createTaskSync } from '../../server/src/tasks/task-sync.ts';
import { davAccount } from '../../server/src/test/dav-clients.ts';
import { bearer, buildTestApp, createTestDatabase, type TestApp } from '../../server/src/test/test-app.ts';
import { machine, median } from '../lib/measure.ts';

const RESULTS = path.resolve(import.meta.dirname, '../results');
const TASKS = Number(process.env.BENCH_CALDAV_TASKS ?? 1_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
/** Hrefs per calendar-multiget, as DAVx⁵ and vdirsyncer batch them. */
const MULTIGET_BATCH = 100;
/** docs/budgets.md: issue 40's budgets. */
const BUDGET_FULL_MS = 2_000;
const BUDGET_INCREMENTAL_MS = 100;

const xml = new XMLParser({ removeNSPrefix: true, isArray: (name) => name === 'response' });

type Client = { calendar: string; authorization: string };

async function report(client: Client, body: string): Promise<string> {
  const response = await fetch(client.calendar, {
    method: 'REPORT',
    headers: { authorization: client.authorization, 'content-type': 'application/xml; charset=utf-8', depth: '1' },
    body,
  });
  if (response.status !== 207) throw new Error(`REPORT answered ${response.status}: ${await response.text()}`);
  return response.text();
}

/** What a client does to sync: a sync-collection from its token, then the calendar data of what changed, in batches. */
async function syncOnce(client: Client, token: string): Promise<{ token: string; fetched: number }> {
  const listing = xml.parse(
    await report(
      client,
      `<?xml version="1.0"?><d:sync-collection xmlns:d="DAV:"><d:sync-token>${token}</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>`,
    ),
  ) as { multistatus: { response?: { href: string; propstat?: unknown }[]; 'sync-token': string } };
  const hrefs = (listing.multistatus.response ?? []).filter((response) => response.propstat !== undefined).map((response) => response.href);
  let fetched = 0;
  for (let at = 0; at < hrefs.length; at += MULTIGET_BATCH) {
    const batch = hrefs.slice(at, at + MULTIGET_BATCH).map((href) => `<d:href>${href}</d:href>`).join('');
    const data = xml.parse(
      await report(
        client,
        `<?xml version="1.0"?><c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/></d:prop>${batch}</c:calendar-multiget>`,
      ),
    ) as { multistatus: { response: unknown[] } };
    fetched += data.multistatus.response.length;
  }
  return { token: String(listing.multistatus['sync-token']), fetched };
}

const timed = async <T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> => {
  const started = performance.now();
  const value = await work();
  return { ms: +(performance.now() - started).toFixed(2), value };
};

async function benchOn(dialect: Dialect) {
  const database = await createTestDatabase(dialect);
  let t: TestApp | undefined;
  try {
    t = await buildTestApp(database, { env: { ALLOW_SIGNUP: 'true' } });
    const app = t.app;
    await app.listen({ port: 0, host: '127.0.0.1' });
    const account = await davAccount(app);
    const ids: string[] = [];
    for (let i = 0; i < TASKS; i += 1) {
      const made = await app.inject({
        method: 'POST',
        url: '/schedule',
        payload: { name: `Chore ${i}`, first_schedule_time: new Date(Date.UTC(2027, 0, 1) + i * 3_600_000).toISOString(), schedule_type: 'wmd'[i % 3], comment: `Note ${i}` },
        headers: bearer(account.idToken),
      });
      ids.push((made.json() as { id: string }).id);
    }
    const client: Client = {
      calendar: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/dav/calendars/${account.userId}/tasks/`,
      authorization: `Basic ${Buffer.from(`${account.email}:${account.password}`).toString('base64')}`,
    };
    const sync = createTaskSync({ changes: createTaskChangesStore(t.storage.db), zoneOf: async () => 'UTC', listsOf: async () => [] });
    const [own] = await sync.calendarsOf(account.userId);

    const full: number[] = [];
    const fullFloor: number[] = [];
    const incremental: number[] = [];
    const incrementalFloor: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const fromNothing = await timed(() => syncOnce(client, ''));
      if (fromNothing.value.fetched !== TASKS) throw new Error(`a full sync fetched ${fromNothing.value.fetched} of ${TASKS} tasks`);
      full.push(fromNothing.ms);
      fullFloor.push((await timed(() => sync.since(account.userId, own!, 0))).ms);

      const changed = ids[round % ids.length]!;
      await app.inject({ method: 'PUT', url: `/schedule/${changed}`, payload: { type: 'update', key: 'name', value: `Chore renamed ${round}` }, headers: bearer(account.idToken) });
      const after = Number(fromNothing.value.token.split(':').at(-1));
      const oneChange = await timed(() => syncOnce(client, fromNothing.value.token));
      if (oneChange.value.fetched !== 1) throw new Error(`an incremental sync fetched ${oneChange.value.fetched} tasks, not 1`);
      incremental.push(oneChange.ms);
      incrementalFloor.push((await timed(() => sync.since(account.userId, own!, after))).ms);
    }
    return {
      dialect,
      tasks: TASKS,
      rounds: ROUNDS,
      fullSyncMs: { runs: full, median: median(full), floorRuns: fullFloor, floorMedian: median(fullFloor) },
      incrementalSyncMs: { runs: incremental, median: median(incremental), floorRuns: incrementalFloor, floorMedian: median(incrementalFloor) },
    };
  } finally {
    await t?.close();
    await database.drop();
  }
}

type Result = Awaited<ReturnType<typeof benchOn>>;

function markdown(results: Result[], m: ReturnType<typeof machine>): string {
  const verdict = (ms: number, budget: number) => (ms <= budget ? 'within' : '**over**');
  const rows = results.flatMap((result) => [
    `| ${result.dialect} | sync from nothing (sync-collection + calendar-multiget of ${MULTIGET_BATCH}) | ${result.fullSyncMs.median} | ${result.fullSyncMs.floorMedian} | ${BUDGET_FULL_MS} (${verdict(result.fullSyncMs.median, BUDGET_FULL_MS)}) |`,
    `| ${result.dialect} | incremental sync, one task changed | ${result.incrementalSyncMs.median} | ${result.incrementalSyncMs.floorMedian} | ${BUDGET_INCREMENTAL_MS} (${verdict(result.incrementalSyncMs.median, BUDGET_INCREMENTAL_MS)}) |`,
  ]);
  return `# CalDAV benchmark

Machine: ${m.cores} × ${m.cpu}, ${m.memoryGb} GiB, ${m.platform}, Node ${m.node}; ${m.date}. The server runs in the benchmark's process and listens on a real port; the client is \`fetch\` in the same process, so its parsing shares the server's core.

${TASKS.toLocaleString('en')} tasks of one user (made through the API), synced as a client does: a \`sync-collection\` REPORT for the hrefs and ETags, then \`calendar-multiget\` REPORTs for the calendar data, ${MULTIGET_BATCH} hrefs at a time; signed in with an app password (HTTP Basic). The incremental sync follows a rename through the web API and fetches that one task. Medians of ${results[0]?.rounds ?? ROUNDS} rounds, in milliseconds. The floor is the same tasks (or the one change) read from the store in-process, without HTTP, XML or iCalendar.

| database | what | median (ms) | floor (ms) | budget (ms) |
|---|---|---:|---:|---:|
${rows.join('\n')}
`;
}

export async function benchCaldav() {
  const dialects: Dialect[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
  const results: Result[] = [];
  for (const dialect of dialects) {
    results.push(await benchOn(dialect));
    console.log(`  ${dialect}: full ${results.at(-1)!.fullSyncMs.median} ms, incremental ${results.at(-1)!.incrementalSyncMs.median} ms`);
  }
  const m = machine();
  fs.mkdirSync(RESULTS, { recursive: true });
  fs.writeFileSync(path.join(RESULTS, 'caldav.json'), `${JSON.stringify({ machine: m, results }, null, 2)}\n`);
  fs.writeFileSync(path.join(RESULTS, 'caldav.md'), markdown(results, m));
  console.log(markdown(results, m));
}
