import pg from 'pg';

/**
 * A database of its own on the PostgreSQL server of `adminUrl` (any database there the user may
 * connect to), made empty for one benchmark run and dropped after it.
 */
export async function freshPostgresDatabase(
  adminUrl: string,
  name: string,
): Promise<{ url: string; settings: Record<string, string>; drop(): Promise<void> }> {
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      return (await client.query<Record<string, string>>(statement)).rows;
    } finally {
      await client.end();
    }
  };
  const quoted = `"${name.replaceAll('"', '""')}"`;
  await run(`drop database if exists ${quoted} with (force)`);
  await run(`create database ${quoted}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  // The server's settings that decide the plans and the bloat a run sees, for the report.
  const shown = await run(`select name, setting from pg_settings where name in ('autovacuum', 'jit', 'shared_buffers', 'work_mem', 'server_version')`);
  return {
    url: url.href,
    settings: Object.fromEntries(shown.map((row) => [row.name!, row.setting!])),
    drop: async () => {
      await run(`drop database if exists ${quoted} with (force)`);
    },
  };
}
