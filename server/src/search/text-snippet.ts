import { SNIPPET_MATCH_END, SNIPPET_MATCH_START } from '../../../contract/text-snippet.ts';
import { foldDiacritics, searchWords } from './search-text.ts';

/**
 * A text (a book's, a kept page's) is looked through a passage at a time, of about this many characters (cut between
 * words): a search's words are most often in the first, and a novel is half a megabyte.
 */
const PASSAGE_CHARS = 2000;
/** The words a snippet shows before its first match, and at most after it. */
const WORDS_BEFORE = 8;
const WORDS_AFTER = 16;
/**
 * The characters a snippet keeps at most: a "word" can be long (a URL, a line of Chinese or
 * Japanese, which has no spaces), and a card shows a line or two.
 */
export const SNIPPET_MAX_CHARS = 400;
/** A word of the text as written, its combining marks included (folding takes them off). */
const WORD = /[\p{L}\p{N}\p{M}]+/gu;

/** A text cut into passages of about PASSAGE_CHARS, each cut at a space or line break where there is one in its second half. */
export function* passagesOf(text: string): Generator<string> {
  for (let start = 0; start < text.length; ) {
    let end = Math.min(text.length, start + PASSAGE_CHARS);
    if (end < text.length) {
      const between = Math.max(text.lastIndexOf(' ', end), text.lastIndexOf('\n', end));
      if (between > start + PASSAGE_CHARS / 2) end = between;
    }
    yield text.slice(start, end);
    start = end;
  }
}

/** The snippet cut to SNIPPET_MAX_CHARS around its first match, an ellipsis where it was cut, no mark left open. */
export function shortSnippet(snippet: string): string {
  if (snippet.length <= SNIPPET_MAX_CHARS) return snippet;
  const first = Math.max(0, snippet.indexOf(SNIPPET_MATCH_START));
  const start = Math.max(0, Math.min(first - SNIPPET_MAX_CHARS / 4, snippet.length - SNIPPET_MAX_CHARS));
  let cut = snippet.slice(start, start + SNIPPET_MAX_CHARS);
  if (cut.lastIndexOf(SNIPPET_MATCH_START) > cut.lastIndexOf(SNIPPET_MATCH_END)) cut += SNIPPET_MATCH_END;
  return `${start > 0 && !cut.startsWith('…') ? '…' : ''}${cut}${start + SNIPPET_MAX_CHARS < snippet.length ? '…' : ''}`;
}

/**
 * A few words of `text` around the first word that begins with one of `terms` (search-text.ts's
 * terms: folded, lower case), each such word between the match marks; undefined when none does.
 * Words are folded as the search folds them, so "miserables" marks "Misérables". The passages are
 * looked through in order until one holds a term, each first by one expression over its folded
 * text, so a passage without any costs no word by word.
 */
export function snippetOf(text: string, terms: readonly string[]): string | undefined {
  if (terms.length === 0) return undefined;
  // Terms are letters and digits only (searchWords): nothing in them to escape.
  const anyTerm = new RegExp(`(?<![\\p{L}\\p{N}])(?:${terms.join('|')})`, 'u');
  const matches = (word: string) => searchWords(word).some((folded) => terms.some((term) => folded.startsWith(term)));
  let offset = 0;
  for (const passage of passagesOf(text)) {
    const words = anyTerm.test(foldDiacritics(passage).toLowerCase()) ? [...passage.matchAll(WORD)] : [];
    const first = words.findIndex((word) => matches(word[0]));
    if (first >= 0) {
      const from = Math.max(0, first - WORDS_BEFORE);
      const to = Math.min(words.length, first + WORDS_AFTER + 1);
      let shown = '';
      let at = words[from]!.index;
      for (const word of words.slice(from, to)) {
        shown += passage.slice(at, word.index) + (matches(word[0]) ? `${SNIPPET_MATCH_START}${word[0]}${SNIPPET_MATCH_END}` : word[0]);
        at = word.index + word[0].length;
      }
      // To the passage's end after its last word (a full stop), where there is nothing more to cut.
      if (to === words.length) {
        shown += passage.slice(at);
        at = passage.length;
      }
      const before = offset + words[from]!.index > 0 ? '…' : '';
      const after = offset + at < text.length ? '…' : '';
      return shortSnippet(`${before}${shown.replace(/\s+/g, ' ')}${after}`);
    }
    offset += passage.length;
  }
  return undefined;
}
