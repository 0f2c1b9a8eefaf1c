import { searchWords } from './search-text.ts';

type Weight = 'A' | 'B' | 'C' | 'D';

/** PostgreSQL keeps positions up to this; later words share it. */
const MAX_POSITION = 16383;

/**
 * A feature's search fields on PostgreSQL, each a weight class, so that a query can be limited to
 * fields. Both sides are written as literals rather than parsed by to_tsvector and to_tsquery: the
 * words are already folded and split as SQLite splits them (search-text.ts), and PostgreSQL's
 * parser would split them by the server's locale.
 */
export function weightedFields<Field extends string>(weights: Record<Field, Weight>) {
  const fields = Object.keys(weights) as Field[];
  return {
    /** The tsvector of one item's text, field by field in the order of `weights`. */
    vector(text: Record<Field, string>): string {
      const parts: string[] = [];
      let position = 0;
      for (const field of fields) {
        for (const word of searchWords(text[field])) {
          position = Math.min(position + 1, MAX_POSITION);
          parts.push(`'${word}':${position}${weights[field]}`);
        }
      }
      return parts.join(' ');
    },

    /**
     * Every term as a prefix, each in at least one of the chosen fields. With every field chosen
     * the terms carry no weights: a weighted term makes PostgreSQL check each match's tsvector
     * again after the GIN index has found it (a third of a common word's search).
     */
    query(terms: readonly string[], chosen: readonly Field[]): string {
      const classes = fields.every((field) => chosen.includes(field)) ? '' : chosen.map((field) => weights[field]).join('');
      return terms.map((term) => `'${term}':*${classes}`).join(' & ');
    },
  };
}
