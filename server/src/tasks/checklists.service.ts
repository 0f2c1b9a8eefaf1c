import type { Task } from '../../../contract/tasks.ts';
import type { ChecklistChangeBody } from '../../../contract/task-requests.ts';
import type { Clock } from '../clock.ts';
import { AppError } from '../errors.ts';
import { addItem, changeItem, checklistJson, parseChecklist, removeItem } from './checklists.ts';
import { toTask } from './task-record.ts';
import type { TaskRow, TasksStore } from './tasks.store.ts';

type Options = {
  tasks: TasksStore;
  clock: Clock;
  zoneOf(ownerId: string): Promise<string>;
  owned(ownerId: string, id: string): Promise<TaskRow>;
};

const changedMeanwhile = () => new AppError(409, 'The checklist changed meanwhile (edited or completed elsewhere); reload it');

/** The checklist's actions, part of the tasks service: each reads the owner's task and writes its checklist only if unchanged since. */
export function checklistActions({ tasks, clock, zoneOf, owned }: Options) {
  async function edit(ownerId: string, id: string, change: (items: ReturnType<typeof parseChecklist>) => ReturnType<typeof parseChecklist>): Promise<Task> {
    const row = await owned(ownerId, id);
    const updated = await tasks.updateChecklist(ownerId, id, row.checklist, checklistJson(change(parseChecklist(row.checklist))), clock.now());
    if (!updated) throw changedMeanwhile();
    return toTask(updated, await zoneOf(ownerId));
  }

  return {
    addChecklistItem: (ownerId: string, id: string, text: string) => edit(ownerId, id, (items) => addItem(items, text)),
    changeChecklistItem: (ownerId: string, id: string, itemId: string, change: ChecklistChangeBody) =>
      edit(ownerId, id, (items) => changeItem(items, itemId, change)),
    removeChecklistItem: (ownerId: string, id: string, itemId: string) => edit(ownerId, id, (items) => removeItem(items, itemId)),
  };
}
