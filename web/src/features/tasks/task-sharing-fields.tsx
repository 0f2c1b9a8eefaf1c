import Form from 'react-bootstrap/Form';
import { FIELD_LABELS } from '../../../../contract/field-labels.ts';
import type { TaskField } from '../../../../contract/task-requests.ts';
import type { TaskList } from '../../../../contract/task-lists.ts';
import type { Task } from '../../../../contract/tasks.ts';
import { EditableField } from '../../components/editable-field.tsx';
import type { TaskFieldValue } from './tasks.api.ts';
import { listOf, personName, turnLabel } from './task-list-people.ts';

interface TaskSharingFieldsProps {
  task: Task;
  lists: TaskList[];
  /** The caller's id, named "you". */
  me: string | null;
  onSave: (key: TaskField, value: TaskFieldValue) => Promise<boolean>;
}

/**
 * The task's household list, whom it is assigned to and who takes turns (docs/behaviour/task-lists.md),
 * click-to-edit like the task's other fields; rows of the task's field list.
 */
export function TaskSharingFields({ task, lists, me, onSave }: TaskSharingFieldsProps) {
  const list = listOf(task, lists);
  const nameOf = (id: string | null) => personName(list, id, me);
  return (
    <>
      <dt className="col-sm-3" id="task-label-list">
        {FIELD_LABELS.list_id}
      </dt>
      <dd className="col-sm-9" aria-labelledby="task-label-list" data-field="list">
        <EditableField<string>
          id="task-list_id"
          label={FIELD_LABELS.list_id ?? 'List'}
          value={task.list_id ?? ''}
          show={(id) => (id === '' ? 'None (your own task)' : (lists.find((one) => one.id === id)?.name ?? '—'))}
          editor={(draft, setDraft, inputId) => (
            <Form.Select id={inputId} size="sm" value={draft} onChange={(event) => setDraft(event.target.value)}>
              <option value="">None (your own task)</option>
              {lists.map((one) => (
                <option key={one.id} value={one.id}>
                  {one.name}
                </option>
              ))}
            </Form.Select>
          )}
          onSave={(id) => onSave('list_id', id === '' ? null : id)}
        />
      </dd>
      {list !== undefined && (
        <>
          <dt className="col-sm-3" id="task-label-assignee">
            {FIELD_LABELS.assignee_id}
          </dt>
          <dd className="col-sm-9" aria-labelledby="task-label-assignee" data-field="assignee">
            <EditableField<string>
              id="task-assignee_id"
              label={FIELD_LABELS.assignee_id ?? 'Assigned to'}
              value={task.assignee_id ?? ''}
              show={(id) => (id === '' ? 'Nobody in particular' : nameOf(id))}
              editor={(draft, setDraft, inputId) => (
                <Form.Select id={inputId} size="sm" value={draft} onChange={(event) => setDraft(event.target.value)}>
                  <option value="">Nobody in particular</option>
                  {list.people.map((person) => (
                    <option key={person.id} value={person.id}>
                      {person.display_name}
                    </option>
                  ))}
                </Form.Select>
              )}
              onSave={(id) => onSave('assignee_id', id === '' ? null : id)}
            />
          </dd>
          <dt className="col-sm-3" id="task-label-rotation">
            {FIELD_LABELS.rotation}
          </dt>
          <dd className="col-sm-9" aria-labelledby="task-label-rotation" data-field="rotation">
            <EditableField<string[]>
              id="task-rotation"
              label={FIELD_LABELS.rotation ?? 'Takes turns'}
              value={task.rotation}
              show={(ids) => (ids.length === 0 ? 'No one (no rotation)' : ids.map(nameOf).join(' → '))}
              editor={(draft, setDraft, inputId) => (
                <div id={inputId} tabIndex={-1}>
                  {/* Turns go in the order of the list's people: its owner, then its members by name. */}
                  {list.people.map((person) => (
                    <Form.Check
                      key={person.id}
                      id={`${inputId}-${person.id}`}
                      label={person.display_name}
                      checked={draft.includes(person.id)}
                      onChange={(event) =>
                        setDraft(list.people.map((one) => one.id).filter((id) => (id === person.id ? event.target.checked : draft.includes(id))))
                      }
                    />
                  ))}
                </div>
              )}
              onSave={(ids) => onSave('rotation', ids)}
            />
            <small className="d-block text-body-secondary" id="task-turn">
              {turnLabel(task, lists, me) ?? 'Nobody\'s turn in particular'}
            </small>
          </dd>
        </>
      )}
    </>
  );
}
