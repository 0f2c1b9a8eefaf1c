export function BookSearchPage() {
  return <section id="book-search" />;
}
