import { NO_MORE_RESULTS } from '../../../contract/bookmarks.ts';
import { AppError } from '../errors.ts';
import type { ListPosition } from './bookmarks.store.ts';

/** The opaque `pageCursor`: the last listed bookmark's create time and id, so pages never shift. */
export function encodeCursor(position: ListPosition): string {
  return Buffer.from(`${position.createDate}:${position.id}`).toString('base64url');
}

/** undefined for the first page; `done` after the last one. */
export function decodeCursor(cursor: string | undefined): ListPosition | 'done' | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  if (cursor === NO_MORE_RESULTS) return 'done';
  const match = /^(-?\d{1,16}):(\d{1,16})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match || encodeCursor({ createDate: Number(match[1]), id: Number(match[2]) }) !== cursor) {
    throw new AppError(400, 'pageCursor: not a cursor this server gave');
  }
  return { createDate: Number(match[1]), id: Number(match[2]) };
}
