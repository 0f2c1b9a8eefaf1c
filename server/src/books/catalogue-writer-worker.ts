import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';
import type { FromWriter, ToWriter, WriterSetup, WrittenBook } from './catalogue-writer.ts';

/**
 * A catalogue load's writes (catalogue-writer.ts), on a connection of its own in one transaction:
 * the books arrive as their statements' values, so that this thread only runs SQLite.
 */
const setup = workerData as WriterSetup;
const writer = new DatabaseSync(setup.file);
const post = (message: FromWriter) => parentPort!.postMessage(message);
const values = (list: readonly unknown[]) => list as SQLInputValue[];

function open() {
  writer.exec('PRAGMA busy_timeout = 10000');
  const statements = { insert: writer.prepare(setup.insert) };
  writer.exec('BEGIN IMMEDIATE');
  if (setup.start) writer.exec(setup.start);
  const read = setup.read && (writer.prepare(setup.read.sql).get(...values(setup.read.parameters)) as { value: string } | undefined);
  return { statements, value: read?.value };
}

function write({ statements }: ReturnType<typeof open>, row: WrittenBook) {
  statements.insert.run(...values(row));
}

function end(message: FromWriter) {
  if (writer.isTransaction) writer.exec('ROLLBACK');
  writer.close();
  post(message);
  parentPort!.close();
}

try {
  const opened = open();
  post({ type: 'ready', value: opened.value });
  parentPort!.on('message', (message: ToWriter) => {
    try {
      if (message.type === 'books') {
        for (const book of message.books) write(opened, book);
        post({ type: 'wrote' });
      } else if (message.type === 'commit') {
        for (const { sql, parameters } of message.finish) writer.prepare(sql).run(...values(parameters));
        writer.exec('COMMIT');
        end({ type: 'committed' });
      } else {
        end({ type: 'rolledBack' });
      }
    } catch (error) {
      end({ type: 'failed', message: (error as Error).message });
    }
  });
} catch (error) {
  end({ type: 'failed', message: (error as Error).message });
}
