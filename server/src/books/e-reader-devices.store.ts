import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import { BYTES_PER_MB, DEFAULT_SIZE_LIMIT_MB, type EReader, type EReaderBody, type EReaderKind } from '../../../contract/e-readers.ts';
import type { Clock } from '../clock.ts';
import { notFound } from '../errors.ts';
import type { Database, EReaderDevicesTable } from '../storage/schema.ts';

const listed = (row: Selectable<EReaderDevicesTable>): EReader => ({
  id: row.id,
  name: row.name,
  email: row.email,
  kind: row.kind as EReaderKind,
  max_mb: row.max_bytes / BYTES_PER_MB,
  created_at: new Date(row.created_at).toISOString(),
});

/** Each user's e-reader addresses; every query names the owner, so another user's id is as absent as a missing one. */
export function createEReaderDevicesStore(db: Kysely<Database>, clock: Pick<Clock, 'now'>) {
  return {
    async add(userId: string, body: EReaderBody): Promise<EReader> {
      const row = {
        id: randomUUID(),
        user_id: userId,
        name: body.name,
        email: body.email,
        kind: body.kind,
        max_bytes: (body.max_mb ?? DEFAULT_SIZE_LIMIT_MB[body.kind]) * BYTES_PER_MB,
        created_at: clock.now(),
      };
      await db.insertInto('e_reader_devices').values(row).execute();
      return listed(row);
    },

    async list(userId: string): Promise<EReader[]> {
      const rows = await db.selectFrom('e_reader_devices').selectAll().where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute();
      return rows.map(listed);
    },

    /** The user's device of this id; another user's, or one removed, is a 404. */
    async get(userId: string, id: string): Promise<EReader> {
      const row = await db.selectFrom('e_reader_devices').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
      if (!row) throw notFound('E-reader');
      return listed(row);
    },

    async remove(userId: string, id: string): Promise<void> {
      const result = await db.deleteFrom('e_reader_devices').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) throw notFound('E-reader');
    },
  };
}
export type EReaderDevicesStore = ReturnType<typeof createEReaderDevicesStore>;
