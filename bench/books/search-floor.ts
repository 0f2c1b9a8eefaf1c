import os from 'node:os';
import type { BookSearchField } from '../../contract/books.ts';
import { replyPageJson } from '../../server/src/books/book-row.ts';
import { catalogueQuery } from '../../server/src/books/books.search.ts';
import { catalogueIndex, catalogueIndexBuilder } from '../../server/src/books/search-index/catalogue-index.ts';
import { type IndexSourceOptions, openIndexSource } from '../../server/src/books/search-index/index-sources.ts';
import { percentile } from '../lib/measure.ts';
import type { SearchShape } from './query-stream.ts';

/** The bytes of a built index: all of it is typed arrays in shared memory, each counted once. */
function sharedBytes(value: unknown, seen = new Set<SharedArrayBuffer>()): number {
  if (ArrayBuffer.isView(value) && value.buffer instanceof SharedArrayBuffer) {
    if (seen.has(value.buffer)) return 0;
    seen.add(value.buffer);
    return value.buffer.byteLength;
  }
  if (typeof value !== 'object' || value === null) return 0;
  return Object.values(value).reduce((sum: number, item) => sum + sharedBytes(item, seen), 0);
}

export type Latencies = { p50: number; p99: number; mean: number };

/**
 * The search's floor: what the word index's thread does for each query (the index's search, the
 * page's rows read from the same database and written as the reply's JSON), in-process, one at a
 * time, without HTTP or the hop to the thread. Its index is built here from the database.
 */
export async function inProcessSearch(where: IndexSourceOptions, streams: Record<SearchShape, string[]>) {
  const source = openIndexSource(where);
  const builder = catalogueIndexBuilder();
  const started = performance.now();
  const { version } = await source.snapshot((row) => builder.add(row), () => {});
  const data = builder.finish();
  const index = catalogueIndex(data);
  const buildSeconds = +((performance.now() - started) / 1000).toFixed(1);
  const latencies = {} as Record<SearchShape, Latencies>;
  for (const [shape, queries] of Object.entries(streams) as Array<[SearchShape, string[]]>) {
    const times: number[] = [];
    for (const query of queries) {
      const params = new URL(query, 'http://x').searchParams;
      const { identifier, comments, ...indexQuery } = catalogueQuery({
        keys: params.get('keys') ?? '',
        fields: (params.get('fields') ?? 'title').split(',') as BookSearchField[],
        format: '',
        from: 0,
        size: 10,
        includeComment: false,
      });
      const begun = performance.now();
      const answer = await source.answer(version, { identifier, comments, textIds: [] }, (identified) => index.search(indexQuery, identified));
      replyPageJson(answer.rows, indexQuery.from, comments);
      times.push(performance.now() - begun);
    }
    const mean = times.reduce((sum, time) => sum + time, 0) / times.length;
    times.sort((a, b) => a - b);
    latencies[shape] = { p50: +percentile(times, 50).toFixed(3), p99: +percentile(times, 99).toFixed(3), mean: +mean.toFixed(3) };
  }
  await source.close();
  return { buildSeconds, indexMb: Math.round(sharedBytes(data) / 2 ** 20), cores: os.availableParallelism(), latencies };
}
