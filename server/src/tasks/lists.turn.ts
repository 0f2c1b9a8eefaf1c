import type { TaskRow } from './tasks.store.ts';

type TurnFields = Pick<TaskRow, 'list_id' | 'assignee_id' | 'rotation' | 'rotation_turn'>;

/** The task's rotation and assignee among the list's people as they are now; a person who left the list drops out. */
export function currentPeople(task: TurnFields, people: readonly string[]): { assignee: string | null; rotation: string[] } {
  if (task.list_id === null) return { assignee: null, rotation: [] };
  const here = new Set(people);
  const rotation = (JSON.parse(task.rotation) as string[]).filter((id) => here.has(id));
  const assignee = task.assignee_id !== null && here.has(task.assignee_id) ? task.assignee_id : null;
  return { assignee, rotation };
}

/**
 * Whose turn the current occurrence is: the rotation's person at the turn counter (the Completes
 * since the rotation was set) among those still in the list, else the assignee, else nobody
 * (docs/decisions/0048-household-lists.md).
 */
export function turnOf(task: TurnFields, people: readonly string[]): string | null {
  const { assignee, rotation } = currentPeople(task, people);
  return rotation.length > 0 ? (rotation[task.rotation_turn % rotation.length] ?? null) : assignee;
}

/** A task as the notice scheduler reads it: with the people of its list and their addresses. */
export type TurnTask = TurnFields & { list_people: ReadonlyArray<{ id: string; email: string }> };

/** The person whose turn it is, who gets the task's notices beside its `emails`; null for a task with nobody's turn. */
export function turnMemberOf(task: TurnTask): { id: string; email: string } | null {
  const turn = turnOf(task, task.list_people.map((person) => person.id));
  return task.list_people.find((person) => person.id === turn) ?? null;
}
