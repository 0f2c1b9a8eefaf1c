import type { CatalogueQuery } from './catalogue-query.ts';

/**
 * Ranking costs about half a microsecond a match. A search that matches more books than this
 * (a lone "the") lists them in reverse catalogue order instead, at a hundredth of the cost: with
 * that many results no order helps, and the user narrows the search.
 */
export const RANKED_MATCH_LIMIT = 5000;

/**
 * The ranking, the same on both databases: books whose title holds every searched word first,
 * then shorter titles first (in words, stored with the book: `title_words`), then catalogue
 * order. For a search of titles alone (the default) that is BM25's order whenever each word
 * matches once per title, as it nearly always does.
 *
 * Whether the first tier is needed: not without the title among the fields, nor for a search of
 * titles alone, every match of which holds every word in its title, so that length alone ranks.
 */
export const ranksTitleMatchesFirst = (query: Pick<CatalogueQuery, 'fields'>) =>
  query.fields.includes('title') && !(query.fields.length === 1 && query.fields[0] === 'title');
