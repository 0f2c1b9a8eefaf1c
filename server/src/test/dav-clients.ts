import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { NewAppPassword } from '../../../contract/app-passwords.ts';
import { bearer, registerUser } from './test-app.ts';

const run = promisify(execFile);

/** Debian's Python, where python3-caldav, vdirsyncer and todoman are installed (not a pyenv one ahead of it on PATH). */
export const DEBIAN_PYTHON = '/usr/bin/python3';

/** A signed-up user with an app password, as a CalDAV client signs in. */
export async function davAccount(app: FastifyInstance) {
  const registered = await registerUser(app);
  const made = await app.inject({ method: 'POST', url: '/api/users/me/app-passwords', payload: { name: 'Phone' }, headers: bearer(registered.idToken) });
  const { password } = NewAppPassword.parse(made.json());
  return { idToken: registered.idToken, userId: registered.user.uid, email: registered.user.email, password };
}

export type TodoItem = { id: number; summary: string; due: number | null; completed: boolean; list: string };

/**
 * vdirsyncer syncing a folder of calendars with the server, and todoman reading and writing that
 * folder, each with a HOME of its own (their configuration, status and cache) in UTC.
 */
export function davClients(baseUrl: string, account: { email: string; password: string }) {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'organiser-dav-clients-'));
  const calendars = path.join(home, 'calendars');
  fs.mkdirSync(path.join(home, '.config', 'vdirsyncer'), { recursive: true });
  fs.mkdirSync(path.join(home, '.config', 'todoman'), { recursive: true });
  fs.mkdirSync(calendars);
  fs.writeFileSync(
    path.join(home, '.config', 'vdirsyncer', 'config'),
    [
      '[general]',
      `status_path = "${path.join(home, 'status')}/"`,
      '',
      '[pair organiser]',
      'a = "organiser_local"',
      'b = "organiser_remote"',
      'collections = ["from b"]',
      '',
      '[storage organiser_local]',
      'type = "filesystem"',
      `path = "${calendars}/"`,
      'fileext = ".ics"',
      '',
      '[storage organiser_remote]',
      'type = "caldav"',
      `url = "${baseUrl}/"`,
      `username = "${account.email}"`,
      `password = "${account.password}"`,
      'item_types = ["VTODO"]',
      '',
    ].join('\n'),
  );
  fs.writeFileSync(
    path.join(home, '.config', 'todoman', 'config.py'),
    [`path = "${calendars}/*"`, 'date_format = "%Y-%m-%d"', 'time_format = "%H:%M"', 'default_list = "tasks"', ''].join('\n'),
  );
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, TZ: 'UTC', LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' };
  const command = async (file: string, args: string[], input?: string) => {
    const child = run(file, args, { env, cwd: home, timeout: 30_000 });
    if (input !== undefined) {
      child.child.stdin?.end(input);
    }
    try {
      return (await child).stdout;
    } catch (error) {
      const failed = error as { stdout?: string; stderr?: string; message: string };
      throw new Error(`${file} ${args.join(' ')} failed: ${failed.message}\n${failed.stdout ?? ''}\n${failed.stderr ?? ''}`, { cause: error });
    }
  };
  return {
    /** Finds the calendars (and makes their folders here, answering its question with yes), then syncs. */
    async discover(): Promise<void> {
      await command('/usr/bin/vdirsyncer', ['discover'], 'y\ny\ny\n');
    },
    sync: () => command('/usr/bin/vdirsyncer', ['sync']),
    todoman: (...args: string[]) => command('/usr/bin/todoman', args),
    /** Every task todoman sees, done ones too. */
    async todos(): Promise<TodoItem[]> {
      return JSON.parse(await command('/usr/bin/todoman', ['--porcelain', 'list', '--status', 'ANY'])) as TodoItem[];
    },
    calendars,
    remove: () => fs.rmSync(home, { recursive: true, force: true }),
  };
}
