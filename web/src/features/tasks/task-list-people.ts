import type { TaskList } from '../../../../contract/task-lists.ts';
import type { Task } from '../../../../contract/tasks.ts';

/** The household list a task is in, among those the caller sees. */
export const listOf = (task: Pick<Task, 'list_id'>, lists: readonly TaskList[] | null | undefined): TaskList | undefined =>
  task.list_id === null ? undefined : lists?.find((list) => list.id === task.list_id);

/**
 * A person of the list by name, the caller as "you"; "…" while the list is not among the caller's
 * lists loaded so far (the tasks may come first), rather than calling them someone who left.
 */
export function personName(list: TaskList | undefined, id: string | null, me: string | null): string {
  if (id === null) return '—';
  if (id === me) return 'you';
  if (list === undefined) return '…';
  return list.people.find((person) => person.id === id)?.display_name ?? 'someone who left the list';
}

/** "Olive's turn" / "Your turn" for a task whose current occurrence is someone's, else null. */
export function turnLabel(task: Pick<Task, 'turn_id' | 'list_id'>, lists: readonly TaskList[] | null | undefined, me: string | null): string | null {
  if (task.turn_id === null) return null;
  const list = listOf(task, lists);
  // Someone else's turn is named once their list is known: no label until then, not a wrong one.
  if (task.turn_id !== me && list === undefined) return null;
  const name = personName(list, task.turn_id, me);
  return name === 'you' ? 'Your turn' : `${name}'s turn`;
}
