import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import { preparedStatements } from '../storage/node-sqlite.ts';
import type { BookRow } from './catalogue.ts';

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
 * Up to `rankedLimit` matches are ranked. When the keys could be an identifier, `identifier`
 * looks for books that have it, and only when one does do its statements (the word matches with
 * those books added) run: nearly every search finds none and runs the word matches as they are.
 */
export type SearchPlan = SearchStatements & {
  identifier?: { probe: CompiledStatement; statements: SearchStatements };
  from: number;
  rankedLimit: number;
};

/**
 * Runs plans on one read-only connection, each statement prepared once, the probe, the count and
 * the page inside one read transaction so that they agree even when a load commits between them.
 */
export function searchPlanRunner(connection: DatabaseSync) {
  const prepare = preparedStatements(connection);
  const run = <Row>({ sql, parameters }: CompiledStatement): Row[] =>
    prepare(sql).all(...(parameters as SQLInputValue[])) as Row[];
  return (plan: SearchPlan): { total: number; rows: BookRow[] } => {
    connection.exec('BEGIN');
    try {
      const statements = plan.identifier && run(plan.identifier.probe).length > 0 ? plan.identifier.statements : plan;
      const total = run<{ n: number }>(statements.count)[0]?.n ?? 0;
      if (total <= plan.from) return { total, rows: [] };
      return { total, rows: run<BookRow>(total > plan.rankedLimit ? statements.unranked : statements.ranked) };
    } finally {
      connection.exec('COMMIT');
    }
  };
}
