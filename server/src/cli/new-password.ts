import { randomBytes } from 'node:crypto';
import { Password } from '../../../contract/auth.ts';
import { assertUncommonPassword } from '../auth/password-rules.ts';
import { AppError } from '../errors.ts';
import { type CommandInput, CommandError } from './command.ts';

/** 18 random bytes: 24 characters of base64url, 144 bits. */
const GENERATED_BYTES = 18;

/**
 * The password a command sets: read from standard input with `--password-stdin` (one line; its
 * line end is not part of it), checked by the same rules as a sign-up; else generated, and then
 * shown once, since it is kept only as a hash.
 */
export async function newPassword(input: CommandInput): Promise<{ password: string; generated: boolean }> {
  if (!input.options['password-stdin']) return { password: randomBytes(GENERATED_BYTES).toString('base64url'), generated: true };
  const password = (await input.readStdin()).replace(/\r?\n$/, '');
  const parsed = Password.safeParse(password);
  if (!parsed.success) throw new CommandError(`the password from standard input ${parsed.error.issues[0]?.message ?? 'is not valid'}`);
  try {
    await assertUncommonPassword(password);
  } catch (error) {
    if (error instanceof AppError) throw new CommandError('the password from standard input is one of the most common passwords; choose another');
    throw error;
  }
  return { password, generated: false };
}

export const passwordOptions = { 'password-stdin': { type: 'boolean' } } as const;
