/**
 * Firefox ESR, driven headless on a fresh profile, for the fixture scripts that need files only
 * Firefox writes. The profile imports a bookmarks file on its first start
 * (browser.places.importBookmarksHTML); the script then speaks Marionette, Firefox's own remote
 * protocol, to it, and asks it to quit as a user would (a signal skips the shutdown work).
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const firefox = process.env.FIREFOX ?? 'firefox-esr';

const BASE_PREFS = {
  'browser.places.importBookmarksHTML': true,
  'marionette.port': 0,
  'browser.shell.checkDefaultBrowser': false,
  'datareporting.policy.dataSubmissionEnabled': false,
  'browser.startup.homepage_override.mstone': 'ignore',
};

export type MarionetteCommand = [name: string, parameters: object];

/** Sends Marionette commands (`length:json` frames) one after the other; resolves with their answers. */
function marionette(port: number, commands: MarionetteCommand[]): Promise<unknown[]> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const answers: unknown[] = [];
    let buffer = '';
    let sent = 0;
    const sendNext = () => {
      const [name, parameters] = commands[sent]!;
      const frame = JSON.stringify([0, ++sent, name, parameters]);
      socket.write(`${Buffer.byteLength(frame)}:${frame}`);
    };
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (let colon = buffer.indexOf(':'); colon > 0; colon = buffer.indexOf(':')) {
        const length = Number(buffer.slice(0, colon));
        if (buffer.length < colon + 1 + length) return;
        const message = JSON.parse(buffer.slice(colon + 1, colon + 1 + length));
        buffer = buffer.slice(colon + 1 + length);
        // The first frame is the server's greeting, the others answer a command: [1, id, error, result].
        if (Array.isArray(message)) {
          if (message[2]) return reject(new Error(JSON.stringify(message[2])));
          answers.push(message[3]);
        }
        if (sent === commands.length) {
          socket.end();
          resolve(answers);
          return;
        }
        sendNext();
      }
    });
    socket.on('error', reject);
  });
}

export type FirefoxRun = {
  /** The bookmarks file the new profile imports on its first start. */
  bookmarks: string;
  prefs?: Record<string, boolean | number | string>;
  /** `-remote-allow-system-access` lets Marionette's chrome context reach Firefox's own modules. */
  systemAccess?: boolean;
  /** Commands sent after a new session is opened; Firefox is then asked to quit. */
  commands?(profile: string): MarionetteCommand[];
};

/** Runs Firefox on a fresh profile until it has quit; `read` takes what it wrote before the profile goes. */
export async function runFirefox<T>(run: FirefoxRun, read: (profile: string) => T): Promise<T> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'firefox-fixture-'));
  try {
    fs.copyFileSync(run.bookmarks, path.join(profile, 'bookmarks.html'));
    const prefs = { ...BASE_PREFS, ...run.prefs };
    fs.writeFileSync(
      path.join(profile, 'user.js'),
      Object.entries(prefs).map(([name, value]) => `user_pref(${JSON.stringify(name)}, ${JSON.stringify(value)});\n`).join(''),
    );
    const args = ['--headless', '--no-remote', '--marionette', ...(run.systemAccess ? ['-remote-allow-system-access'] : [])];
    const browser = spawn(firefox, [...args, '--profile', profile, 'about:blank'], { stdio: 'ignore' });
    const exited = new Promise((resolve) => browser.on('exit', resolve));
    const portFile = path.join(profile, 'MarionetteActivePort');
    for (let waited = 0; !fs.existsSync(portFile); waited += 250) {
      if (waited > 60_000) throw new Error('Firefox did not start Marionette within a minute');
      await sleep(250);
    }
    // The import runs once Places is up, shortly after start.
    await sleep(Number(process.env.WAIT_MS ?? 10_000));
    const port = Number(fs.readFileSync(portFile, 'utf8'));
    await marionette(port, [['WebDriver:NewSession', {}], ...(run.commands?.(profile) ?? []), ['Marionette:Quit', {}]]);
    await exited;
    return read(profile);
  } finally {
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

export const firefoxVersion = () => execFileSync(firefox, ['--version']).toString().trim();
