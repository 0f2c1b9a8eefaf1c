import fs from 'node:fs';
import pg from 'pg';

/** Linux counts a process's CPU time in clock ticks, 100 to the second on every platform it runs on. */
const MS_PER_TICK = 10;

/** CPU time (user and system) a process has used so far, in ms; 0 once it is gone. */
export function cpuMs(pid: number): number {
  try {
    // Fields after the command name, which may hold spaces, ends with ") ": utime and stime are the 12th and 13th.
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * MS_PER_TICK;
  } catch {
    return 0;
  }
}

/** The PostgreSQL server processes (backends) connected to one database, on this machine. */
export async function backendsOf(adminUrl: string, database: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [database]);
    return rows.map((row) => row.pid);
  } finally {
    await client.end();
  }
}

/**
 * The CPU time a server and its database's backends spend while `work` runs: on a machine others
 * load too, a request's cost in CPU varies far less than its rate. Backends that a pool opens and
 * closes within `work` are missed; a pool keeps its connections while it is busy.
 */
export async function cpuDuring<T>(serverPid: number, backends: () => Promise<number[]>, work: () => Promise<T>) {
  const before = new Map([serverPid, ...(await backends())].map((pid) => [pid, cpuMs(pid)]));
  const result = await work();
  const after = new Set([...before.keys(), ...(await backends())]);
  let database = 0;
  for (const pid of after) {
    const now = cpuMs(pid);
    // A backend gone by now took its count with it.
    if (pid !== serverPid && now > 0) database += now - (before.get(pid) ?? 0);
  }
  return { result, serverMs: cpuMs(serverPid) - before.get(serverPid)!, databaseMs: database };
}
