/** `npm run bench -- <feature>`: runs that feature's benchmark and writes bench/results/<feature>.{json,md}. */
import { benchBookmarks } from './bookmarks/bookmarks.bench.ts';
import { benchPageText } from './bookmarks/page-text.bench.ts';
import { benchBooks } from './books/books.bench.ts';
import { benchBookText } from './books/book-text.bench.ts';
import { benchCaldav } from './caldav/caldav.bench.ts';
import { benchMixed } from './mixed/mixed.bench.ts';
import { benchReader } from './reader/reader.bench.ts';
import { benchTasks } from './tasks/tasks.bench.ts';

const benches: Record<string, () => Promise<void>> = {
  books: benchBooks,
  'book-text': benchBookText,
  bookmarks: benchBookmarks,
  'page-text': benchPageText,
  tasks: benchTasks,
  caldav: benchCaldav,
  mixed: benchMixed,
  reader: benchReader,
};
const asked = process.argv.slice(2);
const names = asked.length > 0 ? asked : Object.keys(benches);
for (const name of names) {
  const bench = benches[name];
  if (!bench) {
    console.error(`unknown benchmark "${name}"; known: ${Object.keys(benches).join(', ')}`);
    process.exit(2);
  }
  console.log(`▶ ${name}`);
  await bench();
}
