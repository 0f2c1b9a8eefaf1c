import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import { preparedStatements } from '../storage/node-sqlite.ts';
import type { BookRow } from './catalogue.ts';

export type CompiledStatement = { sql: string; parameters: readonly unknown[] };

/**
 * A search compiled to SQL on the main thread, so that a search worker needs nothing but
 * `node:sqlite` (a worker that loaded the query builder and the schemas held about 20 MB more).
 * Which page statement runs depends on the count: up to `rankedLimit` matches are ranked.
 */
export type SearchPlan = {
  count: CompiledStatement;
  ranked: CompiledStatement;
  unranked: CompiledStatement;
  from: number;
  rankedLimit: number;
};

/**
 * Runs plans on one read-only connection, each statement prepared once, the count and the page
 * inside one read transaction so that they agree even when a load commits between them.
 */
export function searchPlanRunner(connection: DatabaseSync) {
  const prepare = preparedStatements(connection);
  const run = <Row>({ sql, parameters }: CompiledStatement): Row[] =>
    prepare(sql).all(...(parameters as SQLInputValue[])) as Row[];
  return (plan: SearchPlan): { total: number; rows: BookRow[] } => {
    connection.exec('BEGIN');
    try {
      const total = run<{ n: number }>(plan.count)[0]?.n ?? 0;
      if (total <= plan.from) return { total, rows: [] };
      return { total, rows: run<BookRow>(total > plan.rankedLimit ? plan.unranked : plan.ranked) };
    } finally {
      connection.exec('COMMIT');
    }
  };
}
