export function TaskListPage() {
  return <section id="task-list" />;
}
