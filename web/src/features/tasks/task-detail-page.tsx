export function TaskDetailPage() {
  return <section id="task-detail" />;
}
