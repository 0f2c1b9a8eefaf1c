import fs from 'node:fs';
import path from 'node:path';
import pLimit from 'p-limit';
import type { RunningServer } from '../../web/e2e/server.ts';
import { writeNetscapeFile } from '../bookmarks/generate-bookmarks.ts';
import { calibreJsonFile } from '../books/generate-catalogue.ts';

const OUT = path.resolve(import.meta.dirname, '../out');
const PASSWORD = 'benchmark password';

export type BenchUser = { email: string; uid: string; token: string };

async function generated(name: string, write: (file: string) => Promise<void> | void): Promise<string> {
  fs.mkdirSync(OUT, { recursive: true });
  const file = path.join(OUT, name);
  if (!fs.existsSync(file)) {
    console.log(`  generating ${name}…`);
    await write(file);
  }
  return file;
}

async function post(server: RunningServer, url: string, body: string | FormData, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.baseUrl}${url}`, { method: 'POST', headers, body });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`POST ${url}: ${response.status} ${text.slice(0, 500)}`);
  return JSON.parse(text) as unknown;
}

const json = { 'content-type': 'application/json' };

/** `count` accounts; the first, made first, is the administrator who may load the catalogue. */
export async function signUpUsers(server: RunningServer, count: number): Promise<BenchUser[]> {
  const users: BenchUser[] = [];
  for (let i = 0; i < count; i++) {
    const email = `bench${i}@example.org`;
    const body = JSON.stringify({ email, password: PASSWORD, displayName: `Bench ${i}` });
    const reply = (await post(server, '/auth/register', body, json)) as { idToken: string; user: { uid: string } };
    users.push({ email, uid: reply.user.uid, token: reply.idToken });
  }
  return users;
}

/** Fresh bearer tokens: a setup at a million books outlasts the first ones. */
export async function signInAgain(server: RunningServer, users: BenchUser[]): Promise<BenchUser[]> {
  return Promise.all(
    users.map(async (user) => {
      const reply = (await post(server, '/auth/login', JSON.stringify({ email: user.email, password: PASSWORD }), json)) as { idToken: string };
      return { ...user, token: reply.idToken };
    }),
  );
}

const bearer = (user: BenchUser) => ({ authorization: `Bearer ${user.token}` });

export async function loadCatalogue(server: RunningServer, admin: BenchUser, books: number) {
  const file = await calibreJsonFile(OUT, books);
  const form = new FormData();
  form.append('name', 'replace');
  form.append('file', await fs.openAsBlob(file), path.basename(file));
  const reply = (await post(server, '/api/books/index', form, bearer(admin))) as { total_count: number; error_count: number };
  if (reply.total_count !== books || reply.error_count > 0) throw new Error(`catalogue load: ${JSON.stringify(reply)}`);
}

/** Each user imports the same browser bookmarks file, which the import writes and indexes. */
export async function importBookmarks(server: RunningServer, users: BenchUser[], bookmarks: number) {
  const file = await generated(`bookmarks-${bookmarks}.html`, (to) => writeNetscapeFile(to, bookmarks));
  for (const user of users) {
    const form = new FormData();
    form.append('file', await fs.openAsBlob(file), path.basename(file));
    const reply = (await post(server, '/bookmarks/import', form, bearer(user))) as { imported: number };
    if (reply.imported !== bookmarks) throw new Error(`bookmark import: ${JSON.stringify(reply).slice(0, 500)}`);
  }
}

/** `count` daily tasks per user through the API, due over the coming days. */
export async function createTasks(server: RunningServer, users: BenchUser[], count: number) {
  const limit = pLimit(10);
  const day = 86_400_000;
  const start = Date.now() + day;
  await Promise.all(
    users.flatMap((user) =>
      Array.from({ length: count }, (_, i) =>
        limit(() =>
          post(
            server,
            '/schedule',
            JSON.stringify({ name: `Task ${i}`, first_schedule_time: new Date(start + (i % 365) * day + i * 60_000).toISOString() }),
            { ...json, ...bearer(user) },
          ),
        ),
      ),
    ),
  );
}
