export function BookmarkDetailPage() {
  return <section id="bookmark-detail" />;
}
