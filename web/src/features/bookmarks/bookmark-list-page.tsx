export function BookmarkListPage() {
  return <section id="bookmark-list" />;
}
