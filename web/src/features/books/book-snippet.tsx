import { TextSnippet } from '../../components/text-snippet.tsx';

/** Where a card's book was found in its text (BookResults' `snippets`, Calibre's extraction of the book). */
export function BookSnippet({ snippet }: { snippet: string }) {
  return <TextSnippet snippet={snippet} label="Found in the book's text" className="book-snippet" />;
}
