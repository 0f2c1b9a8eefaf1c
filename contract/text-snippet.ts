/**
 * The marks around each matched word of a snippet of a text (a book's, a kept page's): control
 * characters, which the texts snippets are cut from never keep (their makers take them out).
 */
export const SNIPPET_MATCH_START = '\u0002';
export const SNIPPET_MATCH_END = '\u0003';
