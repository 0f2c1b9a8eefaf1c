import { DatabaseSync } from 'node:sqlite';
import { setImmediate as yieldToEvents } from 'node:timers/promises';
import pg from 'pg';
import type { Storage } from '../../storage/database.ts';
import { pgTypes } from '../../storage/pg-types.ts';
import { BOOK_COLUMNS, type BookRow } from '../book-row.ts';
import { INDEXED_COLUMNS, type IndexedRow } from './catalogue-index.ts';
import type { BuiltFrom } from './index-file.ts';

/** Where the word index reads the catalogue from: a structured-cloneable description, for its worker. */
export type IndexSourceOptions = { kind: 'sqlite'; file: string } | { kind: 'postgres'; connectionString: string; options?: string };

/** Where the word index of an open storage reads the catalogue from: its file, or its server and schema. */
export function indexSourceOf(storage: Storage): IndexSourceOptions {
  if (storage.dialect === 'sqlite') return { kind: 'sqlite', file: storage.sqliteFile };
  const { connectionString, options } = storage.postgres;
  return { kind: 'postgres', connectionString: connectionString!, ...(typeof options === 'string' ? { options } : {}) };
}

/**
 * A page read for a search: its rows, and whether a load has committed since the index was built
 * (`stale`): the index then answered for the catalogue before it, and its books that are gone are
 * missing from the page.
 */
export type PageAnswer = { total: number; rows: BookRow[]; stale: boolean };

/**
 * What a page is read with: the keys as an identifier (books that have it match too), the ids of
 * the books found by their text (those the catalogue holds match too), and whether its comments
 * are wanted.
 */
export type PageOptions = { identifier: string; comments: boolean; textIds: string[] };

/**
 * The catalogue as the word index needs it. `builtFrom` says which catalogue is stored now.
 * `snapshot` reads every book in catalogue order and which catalogue they are, as one snapshot,
 * telling `started` how many books it will read. `answer` runs a search of the index built at
 * `version` and reads its page by the books' `seq`, which never names another book later
 * (migration 0020): when a load has committed since, the page holds the books of the index that
 * are still there, as they are now, and says it is stale.
 */
export type IndexSource = {
  builtFrom(): Promise<BuiltFrom>;
  snapshot(add: (row: IndexedRow) => void, started: (books: number) => void): Promise<BuiltFrom>;
  answer(version: string, page: PageOptions, search: (identified: number[]) => { total: number; seqs: number[] }): Promise<PageAnswer>;
  close(): Promise<void>;
};

const VERSION = `select value from settings where key = 'books_version'`;
const EXTENT = 'select count(*) as books, max(seq) as last from books';
const builtFrom = (version: string | undefined, extent: { books: number | string; last: number | string | null } | undefined): BuiltFrom => ({
  version: version ?? 'none',
  books: Number(extent?.books ?? 0),
  lastSeq: Number(extent?.last ?? 0),
});
const ROW_COLUMNS = INDEXED_COLUMNS.join(', ');
/** The page's columns, `table.`-qualified when given; a comment not wanted is read as null. */
const pageColumns = (comments: boolean, table = '') =>
  ['seq', ...BOOK_COLUMNS].map((column) => (column === 'comment' && !comments ? 'null as comment' : `${table}${column}`)).join(', ');
type PageRow = BookRow & { seq: number; version: string; identifier_key: string };
/**
 * A page's rows (`$1`, their seqs) and the books whose identifier is the keys (`$2`), each with the
 * catalogue's version, read in the same statement (`$2` null: no identifier): when it is the index's, no load has committed
 * since the index was built. Both are index scans (`books_pkey`, `books_identifier_key`).
 */
const pageStatement = (comments: boolean) =>
  `select v.version, b.identifier_key, ${pageColumns(comments, 'b.')}
   from (select (${VERSION}) as version) v
   left join books b on b.seq = any($1::bigint[]) or b.identifier_key = $2`;
/** A snapshot read yields to the worker's messages after this many books. */
const SLICE = 2000;

/**
 * The page's rows in the index's order. A row keeps its `seq`, which `fromRow` ignores: copying
 * each row without it showed in a searching thread's profile.
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
  const byIds = reader.prepare('select seq from books where id in (select value from json_each(?))');
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
  const builtFromOf = (connection: DatabaseSync) =>
    builtFrom(versionOf(connection.prepare(VERSION)), connection.prepare(EXTENT).get() as { books: number; last: number | null });

  return {
    async builtFrom() {
      reader.exec('BEGIN');
      try {
        return builtFromOf(reader);
      } finally {
        reader.exec('COMMIT');
      }
    },

    async snapshot(add, started) {
      // A connection of its own: the snapshot's read transaction stays open while the worker yields.
      const connection = open();
      try {
        connection.exec('BEGIN');
        const at = builtFromOf(connection);
        started(at.books);
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

    async answer(at, { identifier, comments, textIds }, search) {
      reader.exec('BEGIN');
      try {
        const stale = versionOf(version) !== at;
        const identified = [
          ...(identifier ? (probe.all(identifier) as Array<{ seq: number }>) : []),
          ...(textIds.length > 0 ? (byIds.all(JSON.stringify(textIds)) as Array<{ seq: number }>) : []),
        ].map((row) => row.seq);
        const { total, seqs } = search(identified);
        const rows = seqs.length === 0 ? [] : (page(seqs.length, comments).all(...seqs) as Array<BookRow & { seq: number }>);
        return { total, rows: inOrder(seqs, rows), stale };
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
  const builtFromOf = async (client: pg.Pool | pg.PoolClient) => {
    const [version, extent] = [await client.query<{ value: string }>(VERSION), await client.query<{ books: string; last: string | null }>(EXTENT)];
    return builtFrom(version.rows[0]?.value, extent.rows[0]);
  };
  return {
    async builtFrom() {
      const client = await pool.connect();
      try {
        await client.query('begin isolation level repeatable read read only');
        const at = await builtFromOf(client);
        await client.query('commit');
        return at;
      } finally {
        client.release();
      }
    },

    async snapshot(add, started) {
      const client = await pool.connect();
      try {
        await client.query('begin isolation level repeatable read read only');
        const at = await builtFromOf(client);
        started(at.books);
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

    /**
     * One round trip for most searches: the page the search gives without books found by their
     * identifier is read together with those books, by one prepared statement. Only when the keys
     * are some book's identifier (the rows say so) is the search run again with them, and a book
     * of its page not read yet read then.
     */
    async answer(at, { identifier, comments, textIds }, search) {
      // The books found by their text that the catalogue holds: one more round trip, for a search of the text alone.
      const found =
        textIds.length === 0
          ? []
          : (await pool.query<{ seq: string }>({ name: 'book-seqs-of-ids', text: 'select seq from books where id = any($1::text[])', values: [textIds] })).rows.map(
              (row) => Number(row.seq),
            );
      const first = search(found);
      const read = await pool.query<PageRow>({ name: `book-page-${comments}`, text: pageStatement(comments), values: [first.seqs, identifier || null] });
      const stale = (read.rows[0]!.version ?? 'none') !== at;
      const rows = read.rows.filter((row) => row.seq !== null);
      const identified = identifier ? rows.filter((row) => row.identifier_key === identifier).map((row) => Number(row.seq)).sort((a, b) => a - b) : [];
      if (identified.length === 0) return { total: first.total, rows: inOrder(first.seqs, rows), stale };
      const { total, seqs } = search([...found, ...identified]);
      const have = new Set(rows.map((row) => Number(row.seq)));
      const missing = seqs.filter((seq) => !have.has(seq));
      if (missing.length > 0) {
        const more = await pool.query<PageRow>({ name: `book-page-${comments}`, text: pageStatement(comments), values: [missing, null] });
        rows.push(...more.rows.filter((row) => row.seq !== null));
      }
      return { total, rows: inOrder(seqs, rows), stale };
    },

    close: () => pool.end(),
  };
}
