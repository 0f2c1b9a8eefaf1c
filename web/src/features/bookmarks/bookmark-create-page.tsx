export function BookmarkCreatePage() {
  return <section id="bookmark-create" />;
}
