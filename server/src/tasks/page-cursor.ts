import { z } from 'zod';
import { AppError } from '../errors.ts';
import type { DonePosition, TaskPosition } from './tasks.store.ts';

/** A task id has no control character; one in a cursor (PostgreSQL refuses U+0000) means the cursor was forged. */
const Position = z.tuple([z.number().int(), z.string().min(1).max(64).regex(/^\P{Cc}+$/u)]);

/** The list's keyset cursor: the last task's (schedule_time, id), opaque to the client. */
export function encodeCursor({ scheduleTime, id }: TaskPosition): string {
  return Buffer.from(JSON.stringify([scheduleTime, id])).toString('base64url');
}

function decoded<T>(cursor: string, shape: z.ZodType<T>): T {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    value = undefined;
  }
  const parsed = shape.safeParse(value);
  if (!parsed.success) throw new AppError(400, 'pageCursor: is not a cursor of this list');
  return parsed.data;
}

export function decodeCursor(cursor: string): TaskPosition {
  const [scheduleTime, id] = decoded(cursor, Position);
  return { scheduleTime, id };
}

const DoneAt = z.tuple([z.number().int(), z.number().int()]);

/** The Done list's keyset cursor: the last completion's (completed_at, id). */
export function encodeDoneCursor({ completedAt, id }: DonePosition): string {
  return Buffer.from(JSON.stringify([completedAt, id])).toString('base64url');
}

export function decodeDoneCursor(cursor: string): DonePosition {
  const [completedAt, id] = decoded(cursor, DoneAt);
  return { completedAt, id };
}
