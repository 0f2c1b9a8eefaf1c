import type { Task } from '../../../contract/tasks.ts';
import type { ChecklistChangeBody } from '../../../contract/task-requests.ts';
import type { Clock } from '../clock.ts';
import { AppError } from '../errors.ts';
import { addItem, changeItem, checklistJson, parseChecklist, removeItem } from './checklists.ts';
import type { TaskRow, TasksStore } from './tasks.store.ts';

type Options = {
  tasks: TasksStore;
  clock: Clock;
  owned(viewerId: string, id: string): Promise<TaskRow>;
  /** The task as the API sends it. */
  present(row: TaskRow): Promise<Task>;
};

const changedMeanwhile = () => new AppError(409, 'The checklist changed meanwhile (edited or completed elsewhere); reload it');

/** The checklist's actions, part of the tasks service: each reads a task the viewer sees and writes its checklist only if unchanged since. */
export function checklistActions({ tasks, clock, owned, present }: Options) {
  async function edit(viewerId: string, id: string, change: (items: ReturnType<typeof parseChecklist>) => ReturnType<typeof parseChecklist>): Promise<Task> {
    const row = await owned(viewerId, id);
    const updated = await tasks.updateChecklist(viewerId, id, row.checklist, checklistJson(change(parseChecklist(row.checklist))), clock.now());
    if (!updated) throw changedMeanwhile();
    return present(updated);
  }

  return {
    addChecklistItem: (viewerId: string, id: string, text: string) => edit(viewerId, id, (items) => addItem(items, text)),
    changeChecklistItem: (viewerId: string, id: string, itemId: string, change: ChecklistChangeBody) =>
      edit(viewerId, id, (items) => changeItem(items, itemId, change)),
    removeChecklistItem: (viewerId: string, id: string, itemId: string) => edit(viewerId, id, (items) => removeItem(items, itemId)),
  };
}
