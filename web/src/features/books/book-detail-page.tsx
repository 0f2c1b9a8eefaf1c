export function BookDetailPage() {
  return <section id="book-detail" />;
}
