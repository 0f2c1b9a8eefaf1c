import { type FormEvent, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import type { Task } from '../../../../contract/tasks.ts';
import { useApiDispatch } from '../../api/api.ts';
import { useTasksDispatch } from './tasks.slice.ts';
import { addChecklistItem, changeChecklistItem, removeChecklistItem } from './tasks.thunks.ts';
import { taskChecklistTextProblem } from './task-checks.ts';

/**
 * The task's checklist (docs/behaviour/tasks-and-notices.md): tick, add, remove. Each change answers
 * with the task, which becomes the current one; Complete unticks every item for the next occurrence.
 */
export function TaskChecklist({ task }: { task: Task }) {
  const calls = useApiDispatch();
  const dispatch = useTasksDispatch();
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const add = async (event: FormEvent) => {
    event.preventDefault();
    const found = taskChecklistTextProblem(text);
    setProblem(found);
    if (found === null && (await dispatch(addChecklistItem(calls, task.id, text.trim())))) setText('');
  };

  return (
    <section id="task-checklist" className="mb-3">
      <h2 className="h5">Checklist</h2>
      {task.checklist.length === 0 && <p className="text-body-secondary mb-2">No items</p>}
      <ul className="list-unstyled mb-2">
        {task.checklist.map((item) => (
          <li key={item.id} className="d-flex align-items-center gap-2 task-checklist-item">
            <Form.Check
              id={`task-checklist-${item.id}`}
              label={item.text}
              checked={item.done}
              onChange={(event) => void dispatch(changeChecklistItem(calls, task.id, item.id, { done: event.target.checked }))}
            />
            <Button size="sm" variant="link" className="text-danger p-0" aria-label={`Remove ${item.text}`} onClick={() => void dispatch(removeChecklistItem(calls, task.id, item.id))}>
              Remove
            </Button>
          </li>
        ))}
      </ul>
      <Form noValidate className="d-flex gap-2" onSubmit={(event) => void add(event)}>
        <Form.Control id="task-checklist-new" size="sm" aria-label="New checklist item" placeholder="New item" value={text} isInvalid={problem !== null} onChange={(event) => setText(event.target.value)} />
        <Button size="sm" type="submit" variant="outline-primary">
          Add
        </Button>
      </Form>
      {problem !== null && <p className="text-danger small mt-1">{problem}</p>}
    </section>
  );
}
