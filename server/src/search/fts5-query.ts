/**
 * FTS5 query text: each term a prefix, all required, within the chosen columns of an index
 * (`all` its columns; none named when every one is chosen). Terms are letters and digits only
 * (search-text.ts), so quoting them is enough to keep them from being read as FTS5 syntax.
 */
export function fts5Match(terms: readonly string[], chosen: readonly string[], all: readonly string[]): string {
  const filter = chosen.length === all.length ? '' : `{${chosen.join(' ')}} : `;
  return terms.map((term) => `${filter}"${term}"*`).join(' AND ');
}
