import { DatabaseSync } from 'node:sqlite';
import { setImmediate as yieldToEvents } from 'node:timers/promises';
import pg from 'pg';
import type { Storage } from '../../storage/database.ts';
import { pgTypes } from '../../storage/pg-types.ts';
import { BOOK_COLUMNS, type BookRow } from '../book-row.ts';
import { INDEXED_COLUMNS, type IndexedRow } from './catalogue-index.ts';

/** Where the word index reads the catalogue from: a structured-cloneable description, for its worker. */
export type IndexSourceOptions = { kind: 'sqlite'; file: string } | { kind: 'postgres'; connectionString: string; options?: string };

/** Where the word index of an open storage reads the catalogue from: its file, or its server and schema. */
export function indexSourceOf(storage: Storage): IndexSourceOptions {
  if (storage.dialect === 'sqlite') return { kind: 'sqlite', file: storage.sqliteFile };
  const { connectionString, options } = storage.postgres;
  return { kind: 'postgres', connectionString: connectionString!, ...(typeof options === 'string' ? { options } : {}) };
}

export type PageAnswer = { total: number; rows: BookRow[] } | 'stale';

/** What a page is read with: the keys as an identifier (books that have it match too), and whether its comments are wanted. */
export type PageOptions = { identifier: string; comments: boolean };

/**
 * The catalogue as the word index needs it. `snapshot` reads every book in catalogue order and the
 * version they are of, as one snapshot. `answer` runs a search of the index built at `version`
 * and reads its page, or answers 'stale' when a load has committed since: the index's books and
 * the rows read are then of one catalogue, which a `seq` alone (reused after a replace) cannot say.
 */
export type IndexSource = {
  snapshot(add: (row: IndexedRow) => void): Promise<string>;
  answer(version: string, page: PageOptions, search: (identified: number[]) => { total: number; seqs: number[] }): Promise<PageAnswer>;
  close(): Promise<void>;
};

const VERSION = `select value from settings where key = 'books_version'`;
const ROW_COLUMNS = INDEXED_COLUMNS.join(', ');
/** The page's columns, `table.`-qualified when given; a comment not wanted is read as null. */
const pageColumns = (comments: boolean, table = '') =>
  ['seq', ...BOOK_COLUMNS].map((column) => (column === 'comment' && !comments ? 'null as comment' : `${table}${column}`)).join(', ');
/** A snapshot read yields to the worker's messages after this many books. */
const SLICE = 2000;

/**
 * The page's rows in the index's order. A row keeps its `seq`, which `fromRow` ignores: copying
 * each row without it was 4% of a searching thread's time.
 */
const inOrder = (seqs: number[], rows: Array<BookRow & { seq: number }>): BookRow[] => {
  const bySeq = new Map(rows.map((row) => [Number(row.seq), row]));
  return seqs.flatMap((seq) => bySeq.get(seq) ?? []);
};

export function openIndexSource(options: IndexSourceOptions): IndexSource {
  return options.kind === 'sqlite' ? sqliteSource(options.file) : postgresSource(options);
}

function sqliteSource(file: string): IndexSource {
  const open = () => {
    const connection = new DatabaseSync(file, { readOnly: true });
    connection.exec('PRAGMA busy_timeout = 10000');
    return connection;
  };
  const reader = open();
  const version = reader.prepare(VERSION);
  const probe = reader.prepare('select seq from books where identifier_key = ?');
  const pages = new Map<string, ReturnType<DatabaseSync['prepare']>>();
  const page = (count: number, comments: boolean) => {
    const key = `${count} ${comments}`;
    let statement = pages.get(key);
    if (!statement) {
      statement = reader.prepare(`select ${pageColumns(comments)} from books where seq in (${Array(count).fill('?').join(', ')})`);
      pages.set(key, statement);
    }
    return statement;
  };
  const versionOf = (statement: ReturnType<DatabaseSync['prepare']>) =>
    (statement.get() as { value: string } | undefined)?.value ?? 'none';

  return {
    async snapshot(add) {
      // A connection of its own: the snapshot's read transaction stays open while the worker yields.
      const connection = open();
      try {
        connection.exec('BEGIN');
        const at = versionOf(connection.prepare(VERSION));
        let read = 0;
        for (const row of connection.prepare(`select ${ROW_COLUMNS} from books order by seq`).iterate()) {
          add(row as IndexedRow);
          if (++read % SLICE === 0) await yieldToEvents();
        }
        connection.exec('COMMIT');
        return at;
      } finally {
        connection.close();
      }
    },

    async answer(at, { identifier, comments }, search) {
      reader.exec('BEGIN');
      try {
        if (versionOf(version) !== at) return 'stale';
        const identified = identifier ? (probe.all(identifier) as Array<{ seq: number }>).map((row) => row.seq) : [];
        const { total, seqs } = search(identified);
        const rows = seqs.length === 0 ? [] : (page(seqs.length, comments).all(...seqs) as Array<BookRow & { seq: number }>);
        return { total, rows: inOrder(seqs, rows) };
      } finally {
        reader.exec('COMMIT');
      }
    },

    async close() {
      reader.close();
    },
  };
}

function postgresSource({ connectionString, options }: Extract<IndexSourceOptions, { kind: 'postgres' }>): IndexSource {
  const pool = new pg.Pool({ connectionString, types: pgTypes, max: 2, ...(options ? { options } : {}) });
  return {
    async snapshot(add) {
      const client = await pool.connect();
      try {
        await client.query('begin isolation level repeatable read read only');
        const at = (await client.query<{ value: string }>(VERSION)).rows[0]?.value ?? 'none';
        for (let after = 0; ; ) {
          const { rows } = await client.query<IndexedRow>(
            `select ${ROW_COLUMNS} from books where seq > $1 order by seq limit ${SLICE}`,
            [after],
          );
          for (const row of rows) add(row);
          if (rows.length < SLICE) break;
          after = Number(rows.at(-1)!.seq);
        }
        await client.query('commit');
        return at;
      } catch (error) {
        await client.query('rollback').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },

    async answer(at, { identifier, comments }, search) {
      const identified = identifier
        ? (await pool.query<{ seq: number }>('select seq from books where identifier_key = $1', [identifier])).rows.map((row) => row.seq)
        : [];
      const { total, seqs } = search(identified);
      // The version read in the page's own statement: equal to the index's, no load has committed since it was built.
      const { rows } = await pool.query<BookRow & { seq: number; version: string }>(
        `select v.version, ${pageColumns(comments, 'b.')}
         from (select (${VERSION}) as version) v left join books b on b.seq = any($1::bigint[])`,
        [seqs],
      );
      if ((rows[0]!.version ?? 'none') !== at) return 'stale';
      return { total, rows: inOrder(seqs, rows.filter((row) => row.seq !== null).map(({ version: _, ...row }) => row)) };
    },

    close: () => pool.end(),
  };
}
