import path from 'node:path';
import type { ParseArgsOptionsConfig } from 'node:util';
import type { Config } from '../config.ts';

/** A command that could not do what it was asked: one line on standard error, exit code 1. */
export class CommandError extends Error {
  override name = 'CommandError';
}

/** A command line this program does not understand: the message and the usage text, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export type CommandInput = {
  /** The options given, by name (strings, or true for a flag). */
  options: Record<string, string | boolean | undefined>;
  /** The arguments after the command's name, as many as it names. */
  args: string[];
  /** The configuration `npm start` would run with, read at the first call (a bad one stops the command as it would the server). */
  config(): Config;
  /** Everything on standard input, for a password piped in. */
  readStdin(): Promise<string>;
  /** Writes a line of the result to standard output. */
  print(line: string): void;
};

export type Command = {
  name: string;
  /** Its usage line, after `npm run organiser --`. */
  usage: string;
  /** What it does, in a few words, for the usage text. */
  summary: string;
  /** The names of its arguments, all required. */
  args: string[];
  options: ParseArgsOptionsConfig;
  run(input: CommandInput): Promise<void>;
};

/**
 * A file named on the command line, from the folder the person typed it in: `npm run` moves to
 * the project's folder, and tells where it started in INIT_CWD.
 */
export const fileFromCaller = (file: string) => path.resolve(process.env.INIT_CWD ?? process.cwd(), file);

const UNITS = ['bytes', 'KB', 'MB', 'GB', 'TB'];

export function formatSize(bytes: number): string {
  let size = bytes;
  let unit = 0;
  while (size >= 1024 && unit < UNITS.length - 1) {
    size /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${size} bytes` : `${size.toFixed(1)} ${UNITS[unit]}`;
}
