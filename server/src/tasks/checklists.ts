import { randomUUID } from 'node:crypto';
import { type ChecklistItem, MAX_CHECKLIST_ITEMS } from '../../../contract/tasks.ts';
import type { ChecklistChangeBody } from '../../../contract/task-requests.ts';
import { AppError, notFound } from '../errors.ts';

// A task's checklist: items kept in order as one JSON column of the task's row, small by bound, so
// that a Complete copies it into the history and resets it in the same statements as the rest.

export function parseChecklist(json: string): ChecklistItem[] {
  return JSON.parse(json) as ChecklistItem[];
}

export const checklistJson = (items: ChecklistItem[]): string => JSON.stringify(items);

export function addItem(items: ChecklistItem[], text: string): ChecklistItem[] {
  if (items.length >= MAX_CHECKLIST_ITEMS) throw new AppError(400, `A checklist has at most ${MAX_CHECKLIST_ITEMS} items`);
  return [...items, { id: randomUUID(), text, done: false }];
}

export function changeItem(items: ChecklistItem[], itemId: string, change: ChecklistChangeBody): ChecklistItem[] {
  if (!items.some((item) => item.id === itemId)) throw notFound('Checklist item');
  return items.map((item) => (item.id === itemId ? { ...item, ...change } : item));
}

export function removeItem(items: ChecklistItem[], itemId: string): ChecklistItem[] {
  if (!items.some((item) => item.id === itemId)) throw notFound('Checklist item');
  return items.filter((item) => item.id !== itemId);
}

/** The checklist of a new occurrence: the same items, none ticked. */
export const resetChecklist = (json: string): string => checklistJson(parseChecklist(json).map((item) => ({ ...item, done: false })));
