import { SNIPPET_MATCH_END, SNIPPET_MATCH_START } from '../../../contract/text-snippet.ts';

/**
 * The parts of a snippet of a text (a book's, a kept page's): its words, each matched one marked.
 * The texts are only ever shown as text, never as HTML.
 */
export function snippetParts(snippet: string): Array<{ text: string; match: boolean }> {
  const parts: Array<{ text: string; match: boolean }> = [];
  for (const [at, piece] of snippet.split(SNIPPET_MATCH_START).entries()) {
    const end = piece.indexOf(SNIPPET_MATCH_END);
    if (at === 0 || end < 0) parts.push({ text: piece.replaceAll(SNIPPET_MATCH_END, ''), match: false });
    else parts.push({ text: piece.slice(0, end), match: true }, { text: piece.slice(end + 1).replaceAll(SNIPPET_MATCH_END, ''), match: false });
  }
  return parts.filter((part) => part.text !== '');
}

/** Where a card's item was found in its text (`label` says which): the words around, the searched ones highlighted. */
export function TextSnippet({ snippet, label, className }: { snippet: string; label: string; className: string }) {
  return (
    <blockquote className={`small text-muted mb-0 mt-1 ${className}`} aria-label={label}>
      {snippetParts(snippet).map((part, at) => (part.match ? <mark key={at}>{part.text}</mark> : <span key={at}>{part.text}</span>))}
    </blockquote>
  );
}
