import type { ReactNode } from 'react';
import Form from 'react-bootstrap/Form';
import type { TaskField } from '../../../../contract/task-requests.ts';
import { SCHEDULE_TYPES, type ScheduleType, type Task } from '../../../../contract/tasks.ts';
import { EditableField } from '../../components/editable-field.tsx';
import { ListEditor, parseInteger } from '../../components/list-editor.tsx';
import type { TaskFieldValue } from './tasks.api.ts';
import { formatTaskTime, fromLocalInput, toLocalInput } from './task-time.ts';

const typeLabel = (type: ScheduleType) => SCHEDULE_TYPES.find((option) => option.value === type)?.label ?? type;
const yesNo = (flag: boolean) => (flag ? 'yes' : 'no');
const listOrNone = (items: readonly (string | number)[]) => (items.length > 0 ? items.join(', ') : '—');

type TimeField = 'schedule_time' | 'schedule_end_time' | 'next_notice_time';

interface TaskFieldsProps {
  task: Task;
  /** The zone times show and are typed in. */
  zone: string;
  /** Whether the value was saved; a refused one keeps its editor open. */
  onSave: (key: TaskField, value: TaskFieldValue) => Promise<boolean>;
}

/** The task's fields (spec §2 Task detail): the click-to-edit ones, then the read-only ones. */
export function TaskFields({ task, zone, onSave }: TaskFieldsProps) {
  const save = (key: TaskField) => (value: TaskFieldValue) => onSave(key, value);
  /** A datetime-local draft: incomplete input is ignored (spec §5); empty clears a field that may be empty. */
  const saveTime = (key: TimeField, clearable: boolean) => async (draft: string) => {
    if (draft === '' && clearable) return save(key)(null);
    const iso = fromLocalInput(draft, zone);
    return iso === null ? false : save(key)(iso);
  };
  const timeEditor = (draft: string, setDraft: (next: string) => void, inputId: string) => (
    <Form.Control id={inputId} size="sm" type="datetime-local" value={draft} onChange={(event) => setDraft(event.target.value)} />
  );
  const timeField = (key: TimeField, clearable: boolean) => (
    <EditableField
      id={`task-${key}`}
      label={key}
      value={toLocalInput(task[key], zone)}
      show={() => formatTaskTime(task[key], zone)}
      editor={timeEditor}
      onSave={saveTime(key, clearable)}
    />
  );

  return (
    <dl className="row">
      <Row label="name">
        <EditableField
          id="task-name"
          label="name"
          value={task.name}
          show={(name) => name}
          editor={(draft, setDraft, inputId) => (
            <Form.Control id={inputId} size="sm" value={draft} onChange={(event) => setDraft(event.target.value)} />
          )}
          onSave={save('name')}
        />
      </Row>
      <Row label="schedule_end_time">{timeField('schedule_end_time', true)}</Row>
      <Row label="schedule_type">
        <EditableField
          id="task-schedule_type"
          label="schedule_type"
          value={task.schedule_type}
          show={typeLabel}
          editor={(draft, setDraft, inputId) => (
            <Form.Select id={inputId} size="sm" value={draft} onChange={(event) => setDraft(event.target.value as ScheduleType)}>
              {SCHEDULE_TYPES.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </Form.Select>
          )}
          onSave={save('schedule_type')}
        />
      </Row>
      <Row label="schedule_time">{timeField('schedule_time', false)}</Row>
      <Row label="next_notice_time">{timeField('next_notice_time', true)}</Row>
      <Row label="emails">
        <EditableField
          id="task-emails"
          label="emails"
          value={task.emails}
          show={listOrNone}
          editor={(draft, setDraft, inputId) => (
            <ListEditor id={inputId} label="e-mail address" items={draft} onChange={setDraft} parse={(text) => text} inputMode="email" />
          )}
          onSave={save('emails')}
        />
      </Row>
      <Row label="notice_hours">
        <EditableField
          id="task-notice_hours"
          label="notice_hours"
          value={task.notice_hours}
          show={listOrNone}
          editor={(draft, setDraft, inputId) => (
            <ListEditor id={inputId} label="notice hour" items={draft} onChange={setDraft} parse={parseInteger} inputMode="numeric" />
          )}
          onSave={save('notice_hours')}
        />
      </Row>
      <Row label="comment">
        <EditableField
          id="task-comment"
          label="comment"
          value={task.comment}
          show={(comment) => (comment === '' ? '—' : comment)}
          editor={(draft, setDraft, inputId) => (
            <Form.Control id={inputId} as="textarea" rows={3} size="sm" value={draft} onChange={(event) => setDraft(event.target.value)} />
          )}
          onSave={save('comment')}
        />
      </Row>
      <Row label="is active">{yesNo(task.active)}</Row>
      <Row label="created">{formatTaskTime(task.create_time, zone)}</Row>
      <Row label="last updated">{formatTaskTime(task.last_updated, zone)}</Row>
      <Row label="first schedule time">{formatTaskTime(task.first_schedule_time, zone)}</Row>
      <Row label="overdue notice">{yesNo(task.overdue_notice)}</Row>
      <Row label="notice in workday">{yesNo(task.notice_in_workday)}</Row>
    </dl>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  const key = label.replaceAll(' ', '-');
  return (
    <>
      <dt className="col-sm-3" id={`task-label-${key}`}>
        {label}
      </dt>
      <dd className="col-sm-9" aria-labelledby={`task-label-${key}`} data-field={key}>
        {children}
      </dd>
    </>
  );
}
