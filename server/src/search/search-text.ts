import anyAscii from 'any-ascii';
import { Parser } from 'htmlparser2';

// eslint-disable-next-line no-control-regex -- the whole ASCII range, NUL included
const NON_ASCII = /[^\u0000-\u007f]/;
/** A Latin letter outside ASCII: what is left of Latin text once NFKD has taken the accents off. */
const LATIN_LETTER_BEYOND_ASCII = /[\p{Script=Latin}&&\p{L}&&\P{ASCII}]/gv;
const ASCII_LETTERS = /^[A-Za-z]+$/;
const latinFolds = new Map<string, string>();

/**
 * The Latin letters that NFKD leaves whole (ı ł ø đ ħ ß æ œ þ …) spelled as any-ascii's
 * transliteration table spells them, so that "kirmizi" finds "Kırmızı" and "lodz" "Łódź". A
 * letter becomes letters only, never a separator, so a word stays one word; other scripts are
 * left alone, so that "война" is still searched as "война".
 */
function foldLatinLetter(letter: string): string {
  let folded = latinFolds.get(letter);
  if (folded === undefined) {
    const ascii = anyAscii(letter);
    folded = ASCII_LETTERS.test(ascii) ? ascii : letter;
    latinFolds.set(letter, folded);
  }
  return folded;
}

/**
 * Accents and other marks removed, compatibility forms folded ("ﬁ" to "fi"), the Latin letters
 * that have no accent to remove spelled in ASCII ("ł" to "l", "ß" to "ss"): done in JavaScript
 * for both engines and for every query, because SQLite's own diacritic folding covers Latin
 * letters only ("й" stays "й" there but becomes "и" here) and not those.
 */
export function foldDiacritics(text: string): string {
  return NON_ASCII.test(text) ? text.replace(NON_ASCII_RUN, foldRun) : text;
}

// eslint-disable-next-line no-control-regex -- the whole ASCII range, NUL included
const NON_ASCII_RUN = /[^\u0000-\u007f]+/g;
/** Runs of up to this many characters are kept folded: a catalogue's accented words come back in book after book. */
const KEPT_RUN_LENGTH = 64;
const KEPT_RUNS = 10_000;
const foldedRuns = new Map<string, string>();

/**
 * One run of characters beyond ASCII, folded. Text is folded a run at a time, not whole: an ASCII
 * character is its own NFKD and a starter, which marks are never reordered across, so the runs
 * fold alone as they would in their text, and a long comment with a few accented words costs
 * those words (a million-book load spent a fifth of its main thread folding whole comments).
 */
function foldRun(run: string): string {
  let folded = foldedRuns.get(run);
  if (folded === undefined) {
    const unmarked = run.normalize('NFKD').replace(/\p{M}+/gu, '');
    folded = NON_ASCII.test(unmarked) ? unmarked.replace(LATIN_LETTER_BEYOND_ASCII, foldLatinLetter) : unmarked;
    if (run.length <= KEPT_RUN_LENGTH) {
      if (foldedRuns.size >= KEPT_RUNS) foldedRuns.clear();
      foldedRuns.set(run, folded);
    }
  }
  return folded;
}

/**
 * The longest word, in characters, that reaches a query or PostgreSQL's index (docs/behaviour/bad-input-and-limits.md).
 * PostgreSQL refuses a word over 2,047 bytes, and folding can lengthen one many times ("㍿" is
 * "株式会社"); 100 characters are at most 400 bytes. A longer word is kept as its first 100
 * characters, which as a prefix still finds it on both engines.
 */
export const MAX_WORD_LENGTH = 100;

/** Cut at a character, never inside a surrogate pair. */
export function capWord(word: string): string {
  return word.length <= MAX_WORD_LENGTH ? word : Array.from(word).slice(0, MAX_WORD_LENGTH).join('');
}

/**
 * Words as both engines index them: folded, lower case, everything that is not a letter or a
 * digit a separator (SQLite's unicode61 tokenizer splits folded text the same way), each capped.
 * So "Les Misérables" and "les miserables" are one to either engine, and search syntax typed by
 * a user is only ever a separator.
 */
export function searchWords(text: string): string[] {
  return (foldDiacritics(text).toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).map(capWord);
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

/** The words of the comma-joined `keys` of docs/behaviour/books.md, whose '#' may come URL-encoded. */
export const keyWords = (keys: string): string[] => searchWords(keys.replace(/%23/gi, '#'));

/** Prefix search terms from the comma-joined `keys` of docs/behaviour/books.md; duplicates and noise dropped. */
export function searchTerms(keys: string): string[] {
  return [...new Set(keyWords(keys))].slice(0, 32);
}
