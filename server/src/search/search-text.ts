import { Parser } from 'htmlparser2';

// eslint-disable-next-line no-control-regex -- the whole ASCII range, NUL included
const NON_ASCII = /[^\u0000-\u007f]/;

/**
 * Accents and other marks removed, compatibility forms folded ("ﬁ" to "fi"): done in JavaScript
 * for both engines and for every query, because SQLite's own diacritic folding covers Latin
 * letters only ("й" stays "й" there but becomes "и" here).
 */
export function foldDiacritics(text: string): string {
  return NON_ASCII.test(text) ? text.normalize('NFKD').replace(/\p{M}+/gu, '') : text;
}

/**
 * Words as both engines index them: folded, lower case, everything that is not a letter or a
 * digit a separator (SQLite's unicode61 tokenizer splits folded text the same way). So
 * "Les Misérables" and "les miserables" are one to either engine, and search syntax typed by a
 * user is only ever a separator.
 */
export function searchWords(text: string): string[] {
  return foldDiacritics(text).toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** The words of an HTML comment, entities decoded, tags and scripts dropped. */
export function htmlText(html: string): string {
  if (!html.includes('<') && !html.includes('&')) return html;
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
