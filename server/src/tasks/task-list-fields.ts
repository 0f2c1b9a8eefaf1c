import type { CreateTaskBody, TaskFieldChange } from '../../../contract/task-requests.ts';
import { AppError } from '../errors.ts';
import type { ListsStore } from './lists.store.ts';
import type { TaskPatch, TaskRow } from './tasks.store.ts';

// A task's household fields: the list it is in, and who of that list's people does it.

const UNKNOWN_LIST = 'list_id: is not one of your lists';
const NOT_IN_A_LIST = (field: string) => `${field}: only a task in a list has one`;

/** Refuses ids that are not among the list's people. */
function onlyPeople(field: string, ids: readonly string[], people: readonly string[]): void {
  if (ids.some((id) => !people.includes(id))) throw new AppError(400, `${field}: must name people of the task's list`);
}

type ListField = 'list_id' | 'assignee_id' | 'rotation';
export type ListFieldChange = Extract<TaskFieldChange, { key: ListField }>;
export const isListChange = (change: TaskFieldChange): change is ListFieldChange =>
  change.key === 'list_id' || change.key === 'assignee_id' || change.key === 'rotation';

/** The checks on a task's list, assignee and rotation, against the lists as they are now. */
export function taskListFields(lists: Pick<ListsStore, 'find' | 'people'>) {
  /** The people of a list the viewer sees, or a 400 naming the field. */
  async function peopleOfList(viewerId: string, listId: string | null, field: string): Promise<string[]> {
    if (listId === null) throw new AppError(400, NOT_IN_A_LIST(field));
    if (!(await lists.find(viewerId, listId))) throw new AppError(400, UNKNOWN_LIST);
    return (await lists.people([listId])).map((person) => person.id);
  }

  return {
    /** A new task's list must be one the owner sees, and the people it names among that list's. */
    async checkNew(ownerId: string, body: CreateTaskBody): Promise<void> {
      const named = [...(body.assignee_id === null ? [] : [body.assignee_id]), ...body.rotation];
      if (body.list_id !== null && !(await lists.find(ownerId, body.list_id))) throw new AppError(400, UNKNOWN_LIST);
      if (named.length === 0) return;
      const people = await peopleOfList(ownerId, body.list_id, body.assignee_id === null ? 'rotation' : 'assignee_id');
      if (body.assignee_id !== null) onlyPeople('assignee_id', [body.assignee_id], people);
      onlyPeople('rotation', body.rotation, people);
    },

    /** A change of list, assignee or rotation: each person named must be one of the list's people. */
    async patchFor(viewerId: string, change: ListFieldChange, row: TaskRow): Promise<TaskPatch> {
      switch (change.key) {
        case 'list_id':
          if (change.value !== null && !(await lists.find(viewerId, change.value))) throw new AppError(400, UNKNOWN_LIST);
          // Another list has other people: whoever was assigned there is not here.
          return { list_id: change.value, assignee_id: null, rotation: '[]', rotation_turn: 0 };
        case 'assignee_id':
          if (change.value !== null) onlyPeople('assignee_id', [change.value], await peopleOfList(viewerId, row.list_id, 'assignee_id'));
          return { assignee_id: change.value };
        case 'rotation':
          if (change.value.length > 0) onlyPeople('rotation', change.value, await peopleOfList(viewerId, row.list_id, 'rotation'));
          // A new rotation starts with its first person.
          return { rotation: JSON.stringify(change.value), rotation_turn: 0 };
      }
    },
  };
}
