import { Parser } from 'htmlparser2';

/**
 * Both databases index the same words: lower case, accents removed, everything that is not a
 * letter or a digit a separator. So "Les Misérables" and "les miserables" are one to either
 * engine, and search syntax typed by a user is only ever a separator.
 */
export function searchWords(text: string): string[] {
  return (
    text
      .normalize('NFKD')
      .replace(/\p{M}+/gu, '')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

export const searchText = (text: string) => searchWords(text).join(' ');

/** The words of an HTML comment, entities decoded, tags and scripts dropped. */
export function htmlText(html: string): string {
  const parts: string[] = [];
  let skipping = 0;
  const parser = new Parser(
    {
      onopentagname(name) {
        if (name === 'script' || name === 'style') skipping += 1;
      },
      onclosetag(name) {
        if ((name === 'script' || name === 'style') && skipping > 0) skipping -= 1;
      },
      ontext(text) {
        if (skipping === 0) parts.push(text);
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return parts.join(' ');
}

/** Prefix search terms from the comma-joined `keys` of spec §5; duplicates and noise dropped. */
export function searchTerms(keys: string): string[] {
  return [...new Set(searchWords(keys.replace(/%23/gi, '#')))].slice(0, 32);
}
