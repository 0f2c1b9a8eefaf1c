import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type RunningServer, startServer } from '../../web/e2e/server.ts';

const FIXTURE_LIBRARY = path.resolve(import.meta.dirname, '../../server/src/books/fixtures/library');
/** The fixture library's book whose EPUB and PDF the generated ones replace (calibre's id), as the reader's end-to-end tests do. */
export const BOOK_ID = '1';
const BOOK_FILES = 'Terry Pratchett/The Science of Discworld (1)/The Science of Discworld - Terry Pratchett';

export const READER = { displayName: 'Bench Reader', email: 'reader@example.org', password: 'a long walk in pictures' };

/** A copy of the fixture library in `work`, with the book's EPUB and PDF replaced by these; the path of each file. */
export function libraryWith(work: string, epub: string, pdf: string): { library: string; epub: string; pdf: string } {
  const library = path.join(work, 'Calibre Library');
  fs.cpSync(FIXTURE_LIBRARY, library, { recursive: true });
  const files = path.join(library, BOOK_FILES);
  fs.copyFileSync(epub, `${files}.epub`);
  fs.copyFileSync(pdf, `${files}.pdf`);
  return { library, epub: `${files}.epub`, pdf: `${files}.pdf` };
}

/** The built server following `library`, with its library loaded and the reader's account made; its bearer token. */
export async function startReaderServer(library: string, env: Record<string, string> = {}, needsWebClient = true): Promise<{ server: RunningServer; token: string }> {
  const server = await startServer({ ALLOW_SIGNUP: 'true', CALIBRE_LIBRARY: library, ...env }, { needsWebClient });
  for (const until = Date.now() + 120_000; ; ) {
    const health = (await (await fetch(`${server.baseUrl}/api/health`)).json()) as { library?: { last_load: { status: string } | null } };
    if (health.library?.last_load?.status === 'ok') break;
    if (Date.now() > until) throw new Error(`the library was not loaded: ${JSON.stringify(health)}`);
    await sleep(100);
  }
  const registered = await fetch(`${server.baseUrl}/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(READER),
  });
  if (registered.status !== 200) throw new Error(`registering failed: ${registered.status} ${await registered.text()}`);
  const { idToken } = (await registered.json()) as { idToken: string };
  return { server, token: idToken };
}
