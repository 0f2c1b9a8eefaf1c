import type { TaskStatus } from '../../../../contract/tasks.ts';

/** The list's heading (docs/behaviour/tasks-and-notices.md): "Found N active tasks", one task in the singular. */
export function taskListHeading(count: number, status: TaskStatus): string {
  if (count === 0) return 'No task found';
  const noun = count === 1 ? 'task' : 'tasks';
  return status === 'all' ? `Found ${count} ${noun}` : `Found ${count} ${status} ${noun}`;
}
