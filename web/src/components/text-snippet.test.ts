import { describe, expect, it } from 'vitest';
import { snippetParts } from './text-snippet.tsx';

describe("a snippet of a book's text", () => {
  it('is its words, the matched ones marked', () => {
    expect(snippetParts('…the \u0002Organiser\u0003 fixtures, \u0002org\u0003s…')).toEqual([
      { text: '…the ', match: false },
      { text: 'Organiser', match: true },
      { text: ' fixtures, ', match: false },
      { text: 'org', match: true },
      { text: 's…', match: false },
    ]);
  });

  it('keeps markup as text, and a stray mark as nothing', () => {
    expect(snippetParts('<b>\u0002x\u0003</b>\u0003 and \u0002y')).toEqual([
      { text: '<b>', match: false },
      { text: 'x', match: true },
      { text: '</b> and ', match: false },
      { text: 'y', match: false },
    ]);
  });
});
