import { describe, expect, it } from 'vitest';
import { searchTerms } from './search-text.ts';
import { passagesOf, shortSnippet, SNIPPET_MAX_CHARS, snippetOf } from './text-snippet.ts';

const mark = (word: string) => `\u0002${word}\u0003`;

describe('passages of a text', () => {
  it('are the whole text, cut between words', () => {
    const text = Array.from({ length: 3000 }, (_, at) => `word${at}`).join(' ');
    const passages = [...passagesOf(text)];
    expect(passages.length).toBeGreaterThan(5);
    expect(passages.join('')).toBe(text);
    for (const passage of passages.slice(1)) expect(passage.startsWith(' ')).toBe(true);
    expect([...passagesOf('x'.repeat(4500))].map((passage) => passage.length)).toEqual([2000, 2000, 500]);
  });
});

describe('a snippet of a book’s text', () => {
  it('shows the words around the first match, each word the search finds marked, folded as the search folds', () => {
    const text = 'Chapter one.\n\nLes Misérables is a novel; Mise\u0301rables again, and miserly misers.';
    expect(snippetOf(text, searchTerms('miserables'))).toBe(`Chapter one. Les ${mark('Misérables')} is a novel; ${mark('Mise\u0301rables')} again, and miserly misers.`);
    expect(snippetOf(text, searchTerms('MISER'))).toBe(
      `Chapter one. Les ${mark('Misérables')} is a novel; ${mark('Mise\u0301rables')} again, and ${mark('miserly')} ${mark('misers')}.`,
    );
    expect(snippetOf(text, searchTerms('novel chapter'))?.startsWith(`${mark('Chapter')} one. Les Misérables is a ${mark('novel')};`)).toBe(true);
    expect(snippetOf(text, searchTerms('absent'))).toBeUndefined();
    // A word's prefix only: "able" is inside "Misérables", not the start of a word.
    expect(snippetOf(text, searchTerms('able'))).toBeUndefined();
  });

  it('finds a match deep in a long text, with an ellipsis each side', () => {
    const text = `${'Rain falls on the plain. '.repeat(400)}The albatross came back. ${'Rain falls on the plain. '.repeat(400)}`;
    const snippet = snippetOf(text, searchTerms('albatross'))!;
    expect(snippet).toContain(`The ${mark('albatross')} came back.`);
    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
  });

  it('is cut around its first match when a word of it is long, its marks closed', () => {
    const long = `${'前'.repeat(600)} ${mark(`紅樓${'夢'.repeat(600)}`)} end`;
    const short = shortSnippet(long);
    expect(short.length).toBeLessThanOrEqual(SNIPPET_MAX_CHARS + 3);
    expect(short.startsWith('…')).toBe(true);
    expect(short.endsWith('\u0003…')).toBe(true);
    expect(short).toContain('\u0002紅樓');
    expect(shortSnippet(`a ${mark('b')} c`)).toBe(`a ${mark('b')} c`);
  });
});
