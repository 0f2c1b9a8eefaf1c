import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { AppError } from '../errors.ts';
import { moduleBeside } from '../server-files.ts';

/** Passwords in code-unit order, one a line, and where each line starts. */
type SortedPasswords = { text: string; starts: Uint32Array };

let commonPasswords: Promise<SortedPasswords> | undefined;

/**
 * zxcvbn's list of the most common passwords (about 49,000 from published breaches, kept by
 * zxcvbn-ts), read once per process. Reading it is slow, so the server reads it as it starts, not
 * at the first sign-up of a flood, and in a thread of its own: the package's module stays in the
 * thread, which ends, and the server keeps the list as one sorted string, a fraction of what the
 * module and a set of the words held.
 */
export function loadCommonPasswords(): Promise<SortedPasswords> {
  commonPasswords ??= (async () => {
    const worker = new Worker(moduleBeside(import.meta.url, './common-passwords-worker'));
    const [text] = (await once(worker, 'message')) as [string];
    const starts = [0];
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
    return { text, starts: Uint32Array.from(starts) };
  })();
  return commonPasswords;
}

/** Whether `word` is a line of `passwords`: a binary search over the lines. */
function isListed({ text, starts }: SortedPasswords, word: string): boolean {
  let low = 0;
  let high = starts.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const line = text.slice(starts[middle], middle + 1 < starts.length ? starts[middle + 1]! - 1 : text.length);
    if (line === word) return true;
    if (line < word) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}

/** Length, blanks and control characters are the contract's rules; this is the one that needs the list. */
export async function assertUncommonPassword(password: string): Promise<void> {
  const common = await loadCommonPasswords();
  if (isListed(common, password.normalize('NFKC').toLowerCase())) {
    throw new AppError(400, 'password: is one of the most common passwords; choose another');
  }
}
