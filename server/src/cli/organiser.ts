import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from '../config.ts';
import { AppError } from '../errors.ts';
import { BackupError } from '../storage/backup.ts';
import { type Command, type CommandInput, CommandError, UsageError } from './command.ts';
import { backupCommand } from './commands/backup.ts';
import { createAdminCommand } from './commands/create-admin.ts';
import { listUsersCommand } from './commands/list-users.ts';
import { resetPasswordCommand } from './commands/reset-password.ts';
import { restoreCommand } from './commands/restore.ts';

const COMMANDS: Command[] = [backupCommand, restoreCommand, createAdminCommand, resetPasswordCommand, listUsersCommand];

const EXIT_OK = 0;
const EXIT_FAILED = 1;
const EXIT_USAGE = 2;

function usageText(): string {
  return [
    'Usage: npm run organiser -- COMMAND',
    '',
    ...COMMANDS.flatMap((command) => [`  ${command.usage}`, `      ${command.summary}`]),
    '',
    'It reads the same environment as npm start (DATA_DIR, DATABASE_URL, ...).',
  ].join('\n');
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The command named first and what follows it, as that command takes them; a UsageError otherwise. */
function parseCommandLine(argv: string[]): { command: Command; input: Pick<CommandInput, 'options' | 'args'> } {
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') throw new UsageError('');
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (!command) throw new UsageError(`unknown command: ${name}`);
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: rest, options: command.options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (parsed.positionals.length !== command.args.length) {
    throw new UsageError(`${command.name} takes ${command.args.length === 0 ? 'no arguments' : command.args.join(' ')}: npm run organiser -- ${command.usage}`);
  }
  return { command, input: { options: parsed.values as CommandInput['options'], args: parsed.positionals } };
}

/** Runs one command; the exit code: 0 done, 1 failed (one line on standard error), 2 not understood (with the usage). */
async function runOrganiser(argv: string[]): Promise<number> {
  try {
    const { command, input } = parseCommandLine(argv);
    let config: Config | undefined;
    await command.run({
      ...input,
      config: () => (config ??= loadConfig()),
      readStdin,
      print: (line) => process.stdout.write(`${line}\n`),
    });
    return EXIT_OK;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message ? `organiser: ${error.message}\n\n` : ''}${usageText()}\n`);
      return EXIT_USAGE;
    }
    const known = error instanceof CommandError || error instanceof BackupError || error instanceof AppError || error instanceof ConfigError;
    process.stderr.write(`organiser: ${known ? error.message : `failed: ${String(error)}`}\n`);
    return EXIT_FAILED;
  }
}

process.exit(await runOrganiser(process.argv.slice(2)));
