export function TaskCreatePage() {
  return <section id="task-create" />;
}
