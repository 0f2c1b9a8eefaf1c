import type { TaskList, TaskListBody, TaskListMembersBody } from '../../../contract/task-lists.ts';
import type { Clock } from '../clock.ts';
import { AppError, notFound } from '../errors.ts';
import type { ListPersonRow, ListsStore, TaskListRow } from './lists.store.ts';

type Options = { lists: ListsStore; clock: Clock };

/** The list as `viewerId` sees it: e-mail addresses only of themself, or of everyone to the owner, who typed them. */
function toTaskList(row: TaskListRow, people: ListPersonRow[], viewerId: string): TaskList {
  const owned = row.owner_id === viewerId;
  return {
    id: row.id,
    name: row.name,
    owner_id: row.owner_id,
    owned,
    people: people
      .filter((person) => person.list_id === row.id)
      .map((person) => ({ id: person.id, display_name: person.display_name, email: owned || person.id === viewerId ? person.email : null })),
    created: new Date(Number(row.created)).toISOString(),
  };
}

/**
 * Household lists (docs/behaviour/task-lists.md): anyone makes lists and shares them with other
 * accounts by e-mail; only the owner renames, shares or deletes one. A list neither theirs nor
 * shared with them is a 404 to everyone else, like one that does not exist; a member who tries an
 * owner's change gets the same 404, as the store's query names the owner.
 */
export function createListsService({ lists, clock }: Options) {
  async function shown(viewerId: string, id: string): Promise<TaskList> {
    const row = await lists.find(viewerId, id);
    if (!row) throw notFound('List');
    return toTaskList(row, await lists.people([row.id]), viewerId);
  }

  return {
    async list(viewerId: string): Promise<TaskList[]> {
      const rows = await lists.visible(viewerId);
      const people = await lists.people(rows.map((row) => row.id));
      return rows.map((row) => toTaskList(row, people, viewerId));
    },

    async create(ownerId: string, { name }: TaskListBody): Promise<TaskList> {
      return shown(ownerId, await lists.create(ownerId, name, clock.now()));
    },

    async rename(ownerId: string, id: string, { name }: TaskListBody): Promise<TaskList> {
      if (!(await lists.rename(ownerId, id, name))) throw notFound('List');
      return shown(ownerId, id);
    },

    /** Its tasks go back to whoever made each, as their own tasks. */
    async remove(ownerId: string, id: string): Promise<void> {
      if (!(await lists.remove(ownerId, id))) throw notFound('List');
    },

    async share(ownerId: string, id: string, { emails }: TaskListMembersBody): Promise<TaskList> {
      const result = await lists.setMembers(ownerId, id, emails);
      if (!result.found) throw notFound('List');
      if (result.unknown.length > 0) {
        // As shelves do: the household is every other account in use here (docs/decisions/0037-shelves.md).
        throw new AppError(400, `emails: ${result.unknown.join(', ')} ${result.unknown.length === 1 ? 'is' : 'are'} not another account here`);
      }
      return shown(ownerId, id);
    },
  };
}
export type ListsService = ReturnType<typeof createListsService>;
