import { AppError } from '../errors.ts';

let commonPasswords: Promise<Set<string>> | undefined;

/**
 * zxcvbn's list of the most common passwords (about 49,000 from published breaches, kept by
 * zxcvbn-ts), read once per process. Reading it holds the event loop for about 100 ms, so the
 * server reads it as it starts, not at the first sign-up of a flood.
 */
export function loadCommonPasswords(): Promise<Set<string>> {
  commonPasswords ??= import('@zxcvbn-ts/language-common').then(
    ({ dictionary }) => new Set((dictionary['passwords-common'] as string[]).map((word) => word.toLowerCase())),
  );
  return commonPasswords;
}

/** Length, blanks and control characters are the contract's rules; this is the one that needs the list. */
export async function assertUncommonPassword(password: string): Promise<void> {
  const common = await loadCommonPasswords();
  if (common.has(password.normalize('NFKC').toLowerCase())) {
    throw new AppError(400, 'password: is one of the most common passwords; choose another');
  }
}
