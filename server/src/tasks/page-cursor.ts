import { z } from 'zod';
import { AppError } from '../errors.ts';
import type { TaskPosition } from './tasks.store.ts';

/** A task id has no control character; one in a cursor (PostgreSQL refuses U+0000) means the cursor was forged. */
const Position = z.tuple([z.number().int(), z.string().min(1).max(64).regex(/^\P{Cc}+$/u)]);

/** The list's keyset cursor: the last task's (schedule_time, id), opaque to the client. */
export function encodeCursor({ scheduleTime, id }: TaskPosition): string {
  return Buffer.from(JSON.stringify([scheduleTime, id])).toString('base64url');
}

export function decodeCursor(cursor: string): TaskPosition {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    decoded = undefined;
  }
  const parsed = Position.safeParse(decoded);
  if (!parsed.success) throw new AppError(400, 'pageCursor: is not a cursor of this list');
  return { scheduleTime: parsed.data[0], id: parsed.data[1] };
}
