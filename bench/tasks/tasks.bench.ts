import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import nodemailer from 'nodemailer';
import { encodeCursor } from '../../server/src/tasks/page-cursor.ts';
import { startTestSmtp } from '../../server/src/test/test-smtp.ts';
import { killHard, type ServerProcess, startServerProcess } from '../../server/src/test/server-process.ts';
import { machine, median, percentile } from '../lib/measure.ts';
import { fixedReplyServer } from '../lib/fixed-reply.ts';
import { seedTasks } from './seed-tasks.ts';

const RESULTS = path.resolve(import.meta.dirname, '../results');
const NOTICES = Number(process.env.BENCH_NOTICES ?? 10_000);
const PAGE_TASKS = Number(process.env.BENCH_PAGE_TASKS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const LOAD_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** One client alone shows the latency of a request; ten show it queued behind others on two cores. */
const CONNECTIONS = [1, 10] as const;
const PAGE_SIZE = 5;

type Server = ServerProcess & { token: string; uid: string };

async function startOrganiser(extraEnv: Record<string, string>): Promise<Server> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'organiser-bench-'));
  const server = await startServerProcess({ DATA_DIR: dataDir, ...extraEnv });
  const response = await fetch(`${server.baseUrl}/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'bench@example.org', password: 'benchmark password', displayName: 'Bench' }),
  });
  const { idToken, user } = (await response.json()) as { idToken: string; user: { uid: string } };
  return { ...server, token: idToken, uid: user.uid };
}

async function stopOrganiser(server: Server) {
  await killHard(server.child);
  fs.rmSync(server.dataDir, { recursive: true, force: true });
}

/** A task created through the API wakes the scheduler, which then finds the seeded ones due. */
async function poke(server: Server) {
  const response = await fetch(`${server.baseUrl}/schedule`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${server.token}` },
    body: JSON.stringify({ name: 'wake up', first_schedule_time: new Date(Date.now() + 365 * 86_400_000).toISOString() }),
  });
  if (response.status !== 200) throw new Error(`creating a task failed: ${response.status}`);
}

type NoticeRun = { notices: number; seconds: number; received: number; duplicates: number; lost: number; killedAt: number | null };

/** NOTICES tasks due at once, delivered to a local SMTP server; with `killAt`, the server is killed -9 after that many mails and restarted. */
async function deliverNotices(killAt: number | null): Promise<NoticeRun> {
  const smtp = await startTestSmtp();
  let server = await startOrganiser({ SMTP_URL: smtp.url });
  try {
    seedTasks(path.join(server.dataDir, 'organiser.sqlite'), server.uid, NOTICES, Date.now() - 1_000, 0);
    const started = performance.now();
    await poke(server);
    if (killAt !== null) {
      while (smtp.received.length < killAt) await sleep(10);
      await killHard(server.child);
      server = { ...server, ...(await startServerProcess(server.env)) };
    }
    await smtp.waitFor(NOTICES, 300_000);
    const seconds = (performance.now() - started) / 1000;
    // A notice sent twice would arrive now.
    await sleep(3_000);
    const unique = new Set(smtp.received.map((mail) => mail.subject)).size;
    return {
      notices: NOTICES,
      seconds: +seconds.toFixed(2),
      received: smtp.received.length,
      duplicates: smtp.received.length - unique,
      lost: NOTICES - unique,
      killedAt: killAt,
    };
  } finally {
    await stopOrganiser(server);
    await smtp.close();
  }
}

/** The floor: nodemailer alone sends NOTICES messages of the same size to the same kind of server, with the same pool. */
async function rawSmtpSeconds(): Promise<number> {
  const smtp = await startTestSmtp();
  const transport = nodemailer.createTransport({ url: smtp.url, pool: true, maxConnections: 4 });
  const started = performance.now();
  const queue = Array.from({ length: NOTICES }, (_, i) => i);
  await Promise.all(
    Array.from({ length: 6 }, async () => {
      for (let i = queue.shift(); i !== undefined; i = queue.shift()) {
        await transport.sendMail({
          from: 'Organiser <organiser@localhost>',
          to: 'bench@example.org',
          subject: `Task due: Bench task ${i}`,
          text: `Bench task ${i}\n\nDue: Sunday 22 November 2026, 01:00 (UTC)\n\nhttp://localhost:8080/task/${i}\n`,
        });
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  transport.close();
  await smtp.close();
  return +seconds.toFixed(2);
}

type LoadRound = { p50: number; p99: number; requestsPerSecond: number; errors: number };

async function loadRound(baseUrl: string, token: string, cursors: readonly (string | null)[], connections: number): Promise<LoadRound> {
  let next = 0;
  const result = await autocannon({
    url: baseUrl,
    connections,
    duration: LOAD_SECONDS,
    requests: [
      {
        method: 'GET',
        setupRequest: (request) => {
          const cursor = cursors[next++ % cursors.length] ?? null;
          const headers: Record<string, string> = { ...(request.headers as Record<string, string>), authorization: `Bearer ${token}` };
          if (cursor !== null) headers.pagecursor = cursor;
          return { ...request, path: `/schedule?pageSize=${PAGE_SIZE}`, headers };
        },
      },
    ],
  });
  return {
    p50: result.latency.p50,
    p99: result.latency.p99,
    requestsPerSecond: Math.round(result.requests.average),
    errors: result.errors + result.non2xx,
  };
}

function medianRound(rounds: LoadRound[]): LoadRound {
  return {
    p50: median(rounds.map((r) => r.p50)),
    p99: median(rounds.map((r) => r.p99)),
    requestsPerSecond: median(rounds.map((r) => r.requestsPerSecond)),
    errors: rounds.reduce((sum, r) => sum + r.errors, 0),
  };
}

/** The floor: the store's page query on the same file, in-process, one at a time. */
function rawPageQuery(file: string, uid: string, positions: Array<[number, string]>) {
  const db = new DatabaseSync(file, { readOnly: true });
  const page = db.prepare(`select * from tasks where owner_id = ? and active = 1
    and (schedule_time, id) > (?, ?) order by schedule_time, id limit ?`);
  const times: number[] = [];
  for (let i = 0; i < 5_000; i += 1) {
    const [time, id] = positions[i % positions.length]!;
    const started = performance.now();
    page.all(uid, time, id, PAGE_SIZE + 1);
    times.push(performance.now() - started);
  }
  db.close();
  times.sort((a, b) => a - b);
  return { p50: +percentile(times, 50).toFixed(3), p99: +percentile(times, 99).toFixed(3) };
}

async function taskPage() {
  const server = await startOrganiser({});
  try {
    const file = path.join(server.dataDir, 'organiser.sqlite');
    // Far in the future, so that the scheduler has nothing to send while the page is measured.
    seedTasks(file, server.uid, PAGE_TASKS, Date.now() + 365 * 86_400_000, 60_000);
    const db = new DatabaseSync(file, { readOnly: true });
    const positions = db
      .prepare('select schedule_time, id from tasks where owner_id = ? order by random() limit 2000')
      .all(server.uid)
      .map((row) => [Number(row.schedule_time), String(row.id)] as [number, string]);
    db.close();
    // One request in five asks for the first page, the rest for a page somewhere in the list.
    const cursors = positions.map(([time, id], i) => (i % 5 === 0 ? null : encodeCursor({ scheduleTime: time, id })));
    const sample = await fetch(`${server.baseUrl}/schedule?pageSize=${PAGE_SIZE}`, { headers: { authorization: `Bearer ${server.token}` } });
    const body = await sample.text();
    const measure = async (baseUrl: string) => {
      const byConnections: Record<number, LoadRound> = {};
      for (const connections of CONNECTIONS) {
        const rounds: LoadRound[] = [];
        for (let round = 0; round < ROUNDS; round += 1) rounds.push(await loadRound(baseUrl, server.token, cursors, connections));
        byConnections[connections] = medianRound(rounds);
      }
      return byConnections;
    };
    const api = await measure(server.baseUrl);
    const fixed = await fixedReplyServer([{ method: 'GET', url: '/schedule', body }]);
    let httpFloor: Record<number, LoadRound>;
    try {
      httpFloor = await measure(fixed.baseUrl);
    } finally {
      fixed.stop();
    }
    return {
      tasks: PAGE_TASKS,
      replyBytes: Buffer.byteLength(body),
      api,
      httpFloor,
      rawQuery: rawPageQuery(file, server.uid, positions),
    };
  } finally {
    await stopOrganiser(server);
  }
}

export async function benchTasks() {
  const runs: NoticeRun[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    runs.push(await deliverNotices(null));
    console.log(`  ${NOTICES} notices: ${runs.at(-1)!.seconds} s, ${runs.at(-1)!.duplicates} twice, ${runs.at(-1)!.lost} lost`);
  }
  const crash = await deliverNotices(Math.floor(NOTICES / 2));
  console.log(`  across kill -9: ${crash.seconds} s, ${crash.duplicates} twice, ${crash.lost} lost`);
  const smtpFloor: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) smtpFloor.push(await rawSmtpSeconds());
  const page = await taskPage();
  const report = {
    machine: machine(),
    notices: { runs, medianSeconds: median(runs.map((run) => run.seconds)), crash, rawSmtpMedianSeconds: median(smtpFloor), rawSmtpRuns: smtpFloor },
    page,
  };
  fs.mkdirSync(RESULTS, { recursive: true });
  fs.writeFileSync(path.join(RESULTS, 'tasks.json'), `${JSON.stringify(report, null, 2)}\n`);
  fs.writeFileSync(path.join(RESULTS, 'tasks.md'), markdown(report));
  console.log(markdown(report));
}

type Report = {
  machine: ReturnType<typeof machine>;
  notices: { runs: NoticeRun[]; medianSeconds: number; crash: NoticeRun; rawSmtpMedianSeconds: number; rawSmtpRuns: number[] };
  page: Awaited<ReturnType<typeof taskPage>>;
};

function markdown({ machine: m, notices, page }: Report): string {
  const ratio = (value: number, floor: number) => (floor > 0 ? `${(value / floor).toFixed(1)}×` : '—');
  return `# Tasks benchmark

Machine: ${m.cores} × ${m.cpu}, ${m.memoryGb} GiB, ${m.platform}, Node ${m.node}; ${m.date}. The SMTP server, the load generator and the server share the machine (and its two cores with other work).

## Notices (docs/budgets.md: ${NOTICES.toLocaleString('en')} due notices delivered to a local SMTP server in ≤ 60 s, none twice, none lost across a kill -9)

${NOTICES.toLocaleString('en')} tasks due at once (written into the SQLite file, then the scheduler woken by one API call); time from that call to the last mail accepted by an in-process \`smtp-server\`. Median of ${notices.runs.length} rounds.

| run | seconds to the last mail | mails received | sent twice | lost |
|---|---:|---:|---:|---:|
${notices.runs.map((run, i) => `| round ${i + 1} | ${run.seconds} | ${run.received} | ${run.duplicates} | ${run.lost} |`).join('\n')}
| **median** | **${notices.medianSeconds}** (${ratio(notices.medianSeconds, notices.rawSmtpMedianSeconds)} the floor) | | | |
| floor: nodemailer alone, same messages, same pool (4 connections, 6 at a time) | ${notices.rawSmtpMedianSeconds} | | | |
| killed -9 after ${notices.crash.killedAt} mails, restarted | ${notices.crash.seconds} | ${notices.crash.received} | ${notices.crash.duplicates} | ${notices.crash.lost} |

A mail "sent twice" across the kill is one the SMTP server had accepted in the instant before the kill, before the server could mark it sent: SMTP's own at-least-once. It goes again with the same \`Message-ID\`, so mail clients show it once.

## Task page, ${page.tasks.toLocaleString('en')} tasks of one user, SQLite (docs/budgets.md: p50 ≤ 3 ms)

\`GET /schedule?pageSize=${PAGE_SIZE}\`, medians of ${ROUNDS} rounds of ${LOAD_SECONDS} s at each number of connections; one request in five asks for the first page, the others send a cursor to a random place in the list. Reply ${page.replyBytes} bytes.

| what | connections | p50 (ms) | p99 (ms) | req/s | errors |
|---|---:|---:|---:|---:|---:|
${CONNECTIONS.map((c) => loadRows(c, page.api[c]!, page.httpFloor[c]!)).join('\n')}
| floor: the raw page query in-process, one at a time | 1 | ${page.rawQuery.p50} | ${page.rawQuery.p99} | — | — |
`;
}

function loadRows(connections: number, api: LoadRound, floor: LoadRound): string {
  return [
    `| GET /schedule | ${connections} | ${api.p50} | ${api.p99} | ${api.requestsPerSecond} | ${api.errors} |`,
    `| floor: same framework, same bytes, no query | ${connections} | ${floor.p50} | ${floor.p99} | ${floor.requestsPerSecond} | ${floor.errors} |`,
  ].join('\n');
}
