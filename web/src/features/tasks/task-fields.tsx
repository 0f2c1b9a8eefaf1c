import type { ReactNode } from 'react';
import Form from 'react-bootstrap/Form';
import { FIELD_LABELS } from '../../../../contract/field-labels.ts';
import type { TaskField } from '../../../../contract/task-requests.ts';
import { SCHEDULE_TYPES, type ScheduleType, type Task } from '../../../../contract/tasks.ts';
import { EditableField } from '../../components/editable-field.tsx';
import { type ListDraft, ListEditor, type ParsedItem, settleList } from '../../components/list-editor.tsx';
import type { RuleDraft } from './rule-builder.ts';
import { RuleEditor } from './rule-editor.tsx';
import { ruleWords } from './rule-words.ts';
import type { TaskFieldValue } from './tasks.api.ts';
import { parseEmail, parseNoticeHour, taskTimeProblem, taskValueProblem } from './task-checks.ts';
import { noticeHoursNote } from './task-notices.ts';
import { formatTaskTime, fromLocalInput, toLocalInput } from './task-time.ts';
import './tasks.css';

const typeLabel = (type: ScheduleType) => SCHEDULE_TYPES.find((option) => option.value === type)?.label ?? type;
const yesNo = (flag: boolean) => (flag ? 'yes' : 'no');
const listOrNone = (items: readonly (string | number)[]) => (items.length > 0 ? items.join(', ') : '—');
const labelOf = (key: TaskField | 'first_schedule_time') => FIELD_LABELS[key] ?? key;

type TimeField = 'schedule_time' | 'schedule_end_time' | 'next_notice_time';
type ListField = 'emails' | 'notice_hours';
type FlagField = 'overdue_notice' | 'notice_in_workday';

interface TaskFieldsProps {
  task: Task;
  /** The zone times show and are typed in. */
  zone: string;
  /** What Recipients shows while the task names none: where its notices go then. */
  noRecipients: string;
  /** Whether the value was saved; a refused one keeps its editor open. */
  onSave: (key: TaskField, value: TaskFieldValue) => Promise<boolean>;
}

/** The task's fields (docs/behaviour/tasks-and-notices.md): the click-to-edit ones, then the read-only ones. */
export function TaskFields({ task, zone, noRecipients, onSave }: TaskFieldsProps) {
  const save = (key: TaskField) => (value: TaskFieldValue) => onSave(key, value);
  /** A datetime-local draft as the ISO time sent: empty (or incomplete) is none. */
  const timeOf = (draft: string) => (draft === '' ? null : fromLocalInput(draft, zone));
  const timeEditor = (draft: string, setDraft: (next: string) => void, inputId: string) => (
    <Form.Control id={inputId} size="sm" type="datetime-local" value={draft} onChange={(event) => setDraft(event.target.value)} />
  );
  const timeField = (key: TimeField) => (
    <EditableField
      id={`task-${key}`}
      label={labelOf(key)}
      value={toLocalInput(task[key], zone)}
      show={() => formatTaskTime(task[key], zone)}
      editor={timeEditor}
      check={(draft) => taskTimeProblem(key, timeOf(draft), task)}
      onSave={(draft) => save(key)(timeOf(draft))}
    />
  );
  const flagField = (key: FlagField) => (
    <EditableField
      id={`task-${key}`}
      label={labelOf(key)}
      value={task[key]}
      show={yesNo}
      editor={(draft, setDraft, inputId) => (
        <Form.Select id={inputId} size="sm" value={yesNo(draft)} onChange={(event) => setDraft(event.target.value === 'yes')}>
          <option value="yes">yes</option>
          <option value="no">no</option>
        </Form.Select>
      )}
      onSave={save(key)}
    />
  );
  /** A rule and what it counts from, saved as one or two changes: what it counts from first when that is the due date, so a counted rule is never refused on the way. */
  const saveRule = async (draft: RuleDraft) => {
    const rule = draft.rule.trim() === '' ? null : draft.rule.trim();
    const changes: [TaskField, TaskFieldValue][] = [];
    if (rule !== task.rrule) changes.push(['rrule', rule]);
    if (draft.repeatFrom !== task.repeat_from) changes[draft.repeatFrom === 'due' ? 'unshift' : 'push'](['repeat_from', draft.repeatFrom]);
    for (const [key, value] of changes) if (!(await onSave(key, value))) return false;
    return true;
  };
  const listField = <T extends string | number>(
    key: ListField,
    items: T[],
    itemLabel: string,
    parse: (text: string) => ParsedItem<T>,
    inputMode: 'email' | 'numeric',
    none = '—',
  ) => (
    <EditableField<ListDraft<T>>
      id={`task-${key}`}
      label={labelOf(key)}
      value={{ items, text: '' }}
      show={(draft) => (draft.items.length > 0 ? listOrNone(draft.items) : none)}
      editor={(draft, setDraft, inputId, refuse) => (
        <ListEditor id={inputId} label={itemLabel} draft={draft} onChange={setDraft} parse={parse} onRefused={refuse} inputMode={inputMode} />
      )}
      check={(draft) => {
        const settled = settleList(draft, parse);
        return 'problem' in settled ? settled.problem : taskValueProblem(key, settled.items);
      }}
      onSave={(draft) => {
        const settled = settleList(draft, parse);
        return 'items' in settled ? save(key)(settled.items as TaskFieldValue) : Promise.resolve(false);
      }}
    />
  );

  return (
    <dl className="row">
      <Row field="name" label={labelOf('name')}>
        <EditableField
          id="task-name"
          label={labelOf('name')}
          value={task.name}
          show={(name) => name}
          editor={(draft, setDraft, inputId) => (
            <Form.Control id={inputId} size="sm" value={draft} onChange={(event) => setDraft(event.target.value)} />
          )}
          check={(draft) => taskValueProblem('name', draft)}
          onSave={save('name')}
        />
      </Row>
      {/* A one-off task has no series to end. */}
      {task.schedule_type !== 'o' && <Row field="schedule_end_time" label={labelOf('schedule_end_time')}>{timeField('schedule_end_time')}</Row>}
      <Row field="schedule_type" label={labelOf('schedule_type')}>
        <EditableField
          id="task-schedule_type"
          label={labelOf('schedule_type')}
          value={task.schedule_type}
          show={typeLabel}
          editor={(draft, setDraft, inputId) => (
            <Form.Select id={inputId} size="sm" value={draft} onChange={(event) => setDraft(event.target.value as ScheduleType)}>
              {/* A custom rule is set by the rule below. */}
              {SCHEDULE_TYPES.filter((option) => option.value !== 'c' || draft === 'c').map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </Form.Select>
          )}
          onSave={save('schedule_type')}
        />
      </Row>
      <Row field="rrule" label={labelOf('rrule')}>
        <EditableField<RuleDraft>
          id="task-rrule"
          label={labelOf('rrule')}
          value={{ rule: task.rrule ?? '', repeatFrom: task.repeat_from }}
          show={(draft) => ruleWords(draft.rule === '' ? null : draft.rule, draft.repeatFrom, zone)}
          editor={(draft, setDraft, inputId) => <RuleEditor id={inputId} draft={draft} onChange={setDraft} firstDue={task.schedule_time} zone={zone} />}
          check={(draft) => (draft.rule.trim() === '' ? null : taskValueProblem('rrule', draft.rule))}
          onSave={saveRule}
        />
      </Row>
      <Row field="schedule_time" label={labelOf('schedule_time')}>{timeField('schedule_time')}</Row>
      <Row field="next_notice_time" label={labelOf('next_notice_time')}>{timeField('next_notice_time')}</Row>
      <Row field="emails" label={labelOf('emails')}>
        {listField('emails', task.emails, 'e-mail address', parseEmail, 'email', noRecipients)}
      </Row>
      <Row field="notice_hours" label={labelOf('notice_hours')}>
        {listField('notice_hours', task.notice_hours, 'notice hour', parseNoticeHour, 'numeric')}
        <small className="d-block text-body-secondary" id="task-notice-hours-note">
          {noticeHoursNote(task)}
        </small>
      </Row>
      <Row field="overdue notice" label={labelOf('overdue_notice')}>{flagField('overdue_notice')}</Row>
      <Row field="notice in workday" label={labelOf('notice_in_workday')}>{flagField('notice_in_workday')}</Row>
      <Row field="comment" label={labelOf('comment')}>
        <EditableField
          id="task-comment"
          label={labelOf('comment')}
          value={task.comment}
          show={(comment) => (comment === '' ? '—' : <span className="task-comment-text">{comment}</span>)}
          editor={(draft, setDraft, inputId) => (
            <Form.Control id={inputId} as="textarea" rows={3} size="sm" value={draft} onChange={(event) => setDraft(event.target.value)} />
          )}
          check={(draft) => taskValueProblem('comment', draft)}
          onSave={save('comment')}
        />
      </Row>
      <Row field="is active" label="Active">{yesNo(task.active)}</Row>
      <Row field="created" label="Created">{formatTaskTime(task.create_time, zone)}</Row>
      <Row field="last updated" label="Last updated">{formatTaskTime(task.last_updated, zone)}</Row>
      <Row field="first schedule time" label={labelOf('first_schedule_time')}>{formatTaskTime(task.first_schedule_time, zone)}</Row>
    </dl>
  );
}

/** A field under its label; `field` names it for the page's ids (`data-field`), whatever the label says. */
function Row({ field, label, children }: { field: string; label: string; children: ReactNode }) {
  const key = field.replaceAll(' ', '-');
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
