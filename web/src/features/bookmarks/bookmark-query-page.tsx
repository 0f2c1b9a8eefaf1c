export function BookmarkQueryPage() {
  return <section id="bookmark-query" />;
}
