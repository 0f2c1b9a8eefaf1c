/**
 * The import's floor, run as a script of its own: `node import-floor.ts <calibre.json> <migrated.sqlite> <new.sqlite>`.
 * It parses the Calibre JSON file (a record at a time, `JSON.parse`), maps each record to the row
 * a load writes (the server's own mapping, so the rows are the same) and inserts them into a new
 * database holding the books table alone, made with the DDL of an empty database the server
 * migrated, in one transaction. Printed: `{"books": n, "seconds": s}`.
 */
import fs from 'node:fs';
import readline from 'node:readline';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import { storedRow } from '../../server/src/books/book-row.ts';
import { fromCalibreJson } from '../../server/src/books/import/calibre-json.ts';
import type { CatalogueBook } from '../../contract/books.ts';

const [jsonFile, migratedFile, floorFile] = process.argv.slice(2) as [string, string, string];

const migrated = new DatabaseSync(migratedFile, { readOnly: true });
const ddl = migrated.prepare("select sql from sqlite_master where tbl_name = 'books' and sql is not null order by type = 'index'").all() as Array<{ sql: string }>;
migrated.close();

const db = new DatabaseSync(floorFile);
db.exec('PRAGMA journal_mode = WAL');
for (const { sql } of ddl) db.exec(sql);

const started = performance.now();
let insert: ReturnType<DatabaseSync['prepare']> | undefined;
let books = 0;
let record: string[] = [];
db.exec('begin');
// calibredb writes each book as an object indented by two spaces: "  {" opens it, "  }" closes it.
for await (const line of readline.createInterface({ input: fs.createReadStream(jsonFile), crlfDelay: Infinity })) {
  if (line === '  {') record = [line];
  else record.push(line);
  if (line !== '  }' && line !== '  },') continue;
  const row = storedRow(fromCalibreJson(JSON.parse(record.join('\n').replace(/,$/, ''))) as CatalogueBook);
  insert ??= db.prepare(`insert into books (${Object.keys(row).join(', ')}) values (${Object.keys(row).map(() => '?').join(', ')})`);
  insert.run(...(Object.values(row) as SQLInputValue[]));
  books++;
}
db.exec('commit');
const seconds = (performance.now() - started) / 1000;
db.close();
console.log(JSON.stringify({ books, seconds }));
