import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import { preparedStatements } from '../storage/node-sqlite.ts';
import type { BookRow } from './book-row.ts';

export type CompiledStatement = { sql: string; parameters: readonly unknown[] };

/** The statements of one search; which page statement runs depends on the count. */
export type SearchStatements = {
  count: CompiledStatement;
  ranked: CompiledStatement;
  unranked: CompiledStatement;
};

/**
 * A search compiled to SQL on the main thread, so that a search worker needs nothing but
 * `node:sqlite` (a worker that loaded the query builder and the schemas held about 20 MB more).
 * Up to `rankedLimit` matches are ranked. When the keys could be an identifier, `identifierProbe`
 * looks for a book that has it first: nearly every search finds none and runs as planned; one
 * that finds a book answers `identifierFound`, to be planned again with those books added.
 */
export type SearchPlan = SearchStatements & {
  identifierProbe?: CompiledStatement;
  from: number;
  rankedLimit: number;
};

export type SearchAnswer = { total: number; rows: BookRow[] } | { identifierFound: true };

/**
 * Runs plans on one read-only connection, each statement prepared once, the probe, the count and
 * the page inside one read transaction so that they agree even when a load commits between them.
 */
export function searchPlanRunner(connection: DatabaseSync) {
  const prepare = preparedStatements(connection);
  const run = <Row>({ sql, parameters }: CompiledStatement): Row[] =>
    prepare(sql).all(...(parameters as SQLInputValue[])) as Row[];
  return (plan: SearchPlan): SearchAnswer => {
    connection.exec('BEGIN');
    try {
      if (plan.identifierProbe && run(plan.identifierProbe).length > 0) return { identifierFound: true };
      const total = run<{ n: number }>(plan.count)[0]?.n ?? 0;
      if (total <= plan.from) return { total, rows: [] };
      return { total, rows: run<BookRow>(total > plan.rankedLimit ? plan.unranked : plan.ranked) };
    } finally {
      connection.exec('COMMIT');
    }
  };
}
