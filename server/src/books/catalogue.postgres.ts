import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import type { CompiledQuery, Kysely } from 'kysely';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { CatalogueBook } from '../../../contract/books.ts';
import type { Database } from '../storage/schema.ts';
import { STORED_COLUMN_NAMES, STORED_COLUMNS, type StoredBook, storedRow } from './book-row.ts';
import { type CatalogueStore, catalogueReads, libraryFolderRead, libraryFolderWrite, newCatalogueVersion } from './books.search.ts';
import { libraryFolderTracker } from './library-folder.ts';

const COLUMNS = STORED_COLUMN_NAMES.join(', ');
/**
 * The load's books before they go into `books`: a temporary table (no WAL, no index), dropped
 * with the transaction. `ord` is the book's place in the file, for a book given twice.
 */
const STAGE = `create temporary table books_load (
  ord bigint generated always as identity,
  ${STORED_COLUMN_NAMES.map((column) => `${column} ${STORED_COLUMNS[column]}`).join(', ')}
) on commit drop`;
/**
 * The staged books into `books` in one statement, a book already there updated. It reads the
 * staged table in its order on disk, the file's (a temporary table is never scanned from the
 * middle), so the books get their `seq` in the file's order, as a load of SQLite gives them.
 */
const MERGE = `insert into books (${COLUMNS}) select ${COLUMNS} from books_load
  on conflict (id) do update set ${STORED_COLUMN_NAMES.filter((column) => column !== 'id')
    .map((column) => `${column} = excluded.${column}`)
    .join(', ')}`;
/** A book given twice in one file: the last one is kept, as a load of SQLite keeps it. */
const KEEP_LAST = `delete from books_load s using (
  select id, max(ord) as last from books_load group by id having count(*) > 1
) twice where s.id = twice.id and s.ord < twice.last`;
/** `MERGE` met one id twice (`ON CONFLICT DO UPDATE command cannot affect row a second time`). */
const CARDINALITY_VIOLATION = '21000';

/** Text sent to COPY at once: large enough that a write costs little, small enough to hold. */
const CHUNK_CHARACTERS = 64 * 1024;

/** A value in COPY's text format: `\N` for null, backslash, tab and line ends escaped. */
const ESCAPED = /[\\\t\n\r]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const copyValue = (value: StoredBook[keyof StoredBook]) =>
  value === null ? '\\N' : typeof value === 'string' ? value.replace(ESCAPED, (c) => ESCAPES[c]!) : String(value);
const copyLine = (book: CatalogueBook) => {
  const row = storedRow(book);
  return `${STORED_COLUMN_NAMES.map((column) => copyValue(row[column])).join('\t')}\n`;
};

const run = (client: pg.Client, { sql, parameters }: CompiledQuery) => client.query(sql, parameters as unknown[]);

/**
 * The catalogue's version as this process last read it from a database: every search asks for it
 * (a search's kept reply is the version's), and on PostgreSQL each ask was a round trip. At 50
 * connections, reading it at most once a second gave 10 % more searches a second
 * (docs/postgresql.md). A load through any catalogue of the same database here forgets it at
 * once; another server's load shows within the second.
 */
const VERSION_READ_EVERY_MS = 1000;
const recentVersions = new WeakMap<Kysely<Database>, ReturnType<typeof readAtMostEvery<string>>>();

function readAtMostEvery<T>(read: () => Promise<T>, ms: number) {
  let last: { at: number; value: Promise<T> } | undefined;
  return {
    read(): Promise<T> {
      const now = performance.now();
      if (!last || now - last.at > ms) {
        const value = read();
        const kept = { at: now, value };
        last = kept;
        value.catch(() => {
          if (last === kept) last = undefined;
        });
      }
      return last.value;
    },
    forget() {
      last = undefined;
    },
  };
}

/**
 * The catalogue on PostgreSQL. A load streams its books with COPY on a connection of its own, so
 * that the server reads and checks the next records while PostgreSQL writes the ones before; the
 * books go into a temporary table and from there into `books` in one statement at the end
 * (docs/postgresql.md: 3,121 books a second with a statement per 1,000 books).
 */
export function createPostgresCatalogue(db: Kysely<Database>, connection: pg.ClientConfig): CatalogueStore {
  const reads = catalogueReads(db, 'postgres');
  const recentVersion = recentVersions.get(db) ?? readAtMostEvery(reads.version, VERSION_READ_EVERY_MS);
  recentVersions.set(db, recentVersion);
  return {
    async close() {},
    ...reads,
    version: () => recentVersion.read(),

    /** One transaction: under MVCC, readers see the old catalogue until it commits. */
    async load(mode, load) {
      const client = new pg.Client(connection);
      await client.connect();
      let copy: ReturnType<typeof copyFrom> | undefined;
      try {
        await client.query('begin');
        if (mode === 'replace') await client.query('delete from books');
        const stored = mode === 'update' ? (await run(client, libraryFolderRead(db).compile())).rows[0] : undefined;
        const library = libraryFolderTracker((stored as { value: string } | undefined)?.value);
        await client.query(STAGE);
        const stream = client.query(copyFrom(`copy books_load (${COLUMNS}) from stdin`));
        copy = stream;
        // A failure of the COPY (a value the column refuses) shows at the next write.
        const failed = once(stream, 'error').then(([error]) => {
          throw error as Error;
        });
        failed.catch(() => {});
        let chunk = '';
        const send = async () => {
          if (stream.write(chunk)) return (chunk = '');
          chunk = '';
          await Promise.race([once(stream, 'drain'), failed]);
        };
        const result = await load(async (book) => {
          library.add(book);
          chunk += copyLine(book);
          if (chunk.length >= CHUNK_CHARACTERS) await send();
        });
        if (chunk) await send();
        stream.end();
        await Promise.race([finished(stream), failed]);
        copy = undefined;
        await mergeStaged(client);
        await run(client, libraryFolderWrite(db, library.folder).compile());
        await run(client, newCatalogueVersion(db).compile());
        // The planner's statistics of the books as they are now, committed with them: a search's
        // page is read by its books' seqs and identifiers, and with none (a table just filled,
        // before autovacuum comes, or never where it is off) PostgreSQL guesses a tenth of the
        // books match an identifier.
        await client.query('analyze books');
        await client.query('commit');
        recentVersion.forget();
        return result;
      } catch (error) {
        // Destroying the COPY sends PostgreSQL its failure, which ends the COPY; the rollback then ends the transaction.
        copy?.destroy();
        await client.query('rollback').catch(() => {});
        throw error;
      } finally {
        await client.end().catch(() => {});
      }
    },
  };
}

/** The staged books into `books`; a file that gives a book twice is merged again with its last one only. */
async function mergeStaged(client: pg.Client) {
  await client.query('savepoint merge');
  try {
    await client.query(MERGE);
  } catch (error) {
    if ((error as { code?: string }).code !== CARDINALITY_VIOLATION) throw error;
    await client.query('rollback to savepoint merge');
    await client.query(KEEP_LAST);
    await client.query(MERGE);
  }
}
