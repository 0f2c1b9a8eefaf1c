import { type FormEvent, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useNavigate, useSearchParams } from 'react-router';
import { FIELD_LABELS } from '../../../../contract/field-labels.ts';
import { SCHEDULE_TYPES, ScheduleType } from '../../../../contract/tasks.ts';
import { errorMessage } from '../../api/api-error.ts';
import { useApiDispatch, useCallsUnderWay } from '../../api/api.ts';
import { LoadingSpinner } from '../../components/loading-spinner.tsx';
import { useTaskListsQuery } from './task-lists.api.ts';
import { useTasksDispatch } from './tasks.slice.ts';
import { addTask } from './tasks.thunks.ts';
import { choicesFor, type RuleDraft, ruleOf } from './rule-builder.ts';
import { RuleEditor } from './rule-editor.tsx';
import { firstDueProblem, taskValueProblem } from './task-checks.ts';
import { fromLocalInput } from './task-time.ts';
import { TaskZoneNote } from './task-zone-note.tsx';
import { useTaskZone } from './use-task-zone.ts';

type Problems = { name?: string; time?: string; rule?: string };

export function TaskCreatePage() {
  const calls = useApiDispatch();
  const dispatch = useTasksDispatch();
  const navigate = useNavigate();
  const zone = useTaskZone();
  const [name, setName] = useState('');
  const [time, setTime] = useState('');
  // Daily unless another is chosen: the specification's create payload (docs/behaviour/tasks-and-notices.md).
  const [repeats, setRepeats] = useState<ScheduleType>('d');
  const lists = useTaskListsQuery().data ?? [];
  // "New task" from a list's page starts in that list.
  const [search] = useSearchParams();
  const [listId, setListId] = useState(search.get('list') ?? '');
  // A custom rule ('c'), chosen in words or typed, and what it counts from.
  const [rule, setRule] = useState<RuleDraft>({ rule: '', repeatFrom: 'due' });
  const [problems, setProblems] = useState<Problems>({});
  const [error, setError] = useState<string | null>(null);
  const busy = useCallsUnderWay('createTask');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const firstTime = fromLocalInput(time, zone);
    // The create form's own messages for what is missing (docs/behaviour/tasks-and-notices.md); the contract's for the rest.
    const nameProblem = name.trim() === '' ? 'task name is required' : taskValueProblem('name', name);
    const timeProblem = firstTime === null ? 'Event time is required' : firstDueProblem(firstTime);
    const ruleProblem = repeats === 'c' ? taskValueProblem('rrule', rule.rule) : null;
    const found: Problems = {
      ...(nameProblem ? { name: nameProblem } : {}),
      ...(timeProblem ? { time: timeProblem } : {}),
      ...(ruleProblem ? { rule: ruleProblem } : {}),
    };
    setProblems(found);
    if (firstTime === null || found.name || found.time || found.rule) return;
    setError(null);
    const inList = lists.some((list) => list.id === listId) ? { list_id: listId } : {};
    const schedule = repeats === 'c' ? { schedule_type: repeats, rrule: rule.rule.trim(), repeat_from: rule.repeatFrom } : { schedule_type: repeats };
    void dispatch(addTask(calls, { name: name.trim(), first_schedule_time: firstTime, ...schedule, ...inList })).then(
      (task) => navigate(`/task/${encodeURIComponent(task.id)}`),
      (failure: unknown) => setError(errorMessage(failure)),
    );
  };

  return (
    <section id="task-create">
      <h1 className="h4 mb-3">New task</h1>
      <TaskZoneNote />
      <Form noValidate onSubmit={submit}>
        <Form.Group className="mb-3" controlId="task-name">
          <Form.Label>{FIELD_LABELS.name}</Form.Label>
          <Form.Control placeholder="Task name" value={name} isInvalid={Boolean(problems.name)} onChange={(event) => setName(event.target.value)} />
          <Form.Control.Feedback type="invalid">{problems.name}</Form.Control.Feedback>
        </Form.Group>
        <Form.Group className="mb-3" controlId="task-first-schedule-time">
          <Form.Label>{FIELD_LABELS.first_schedule_time}</Form.Label>
          <Form.Control type="datetime-local" value={time} isInvalid={Boolean(problems.time)} onChange={(event) => setTime(event.target.value)} />
          <Form.Control.Feedback type="invalid">{problems.time}</Form.Control.Feedback>
        </Form.Group>
        <Form.Group className="mb-3" controlId="task-schedule-type">
          <Form.Label>{FIELD_LABELS.schedule_type}</Form.Label>
          <Form.Select
            value={repeats}
            onChange={(event) => {
              const chosen = ScheduleType.parse(event.target.value);
              // A custom rule starts as the rule the words' first choices make, from the time typed.
              if (chosen === 'c' && rule.rule === '') setRule({ ...rule, rule: ruleOf(choicesFor(fromLocalInput(time, zone), zone), zone) });
              setRepeats(chosen);
            }}
          >
            {SCHEDULE_TYPES.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        {repeats === 'c' && (
          <Form.Group className="mb-3">
            <RuleEditor id="task-rule" draft={rule} onChange={setRule} firstDue={fromLocalInput(time, zone)} zone={zone} />
            {problems.rule && (
              <p className="text-danger small mt-1" id="task-rule-problem">
                {problems.rule}
              </p>
            )}
          </Form.Group>
        )}
        {lists.length > 0 && (
          <Form.Group className="mb-3" controlId="task-list">
            <Form.Label>{FIELD_LABELS.list_id}</Form.Label>
            <Form.Select value={listId} onChange={(event) => setListId(event.target.value)}>
              <option value="">None (your own task)</option>
              {lists.map((list) => (
                <option key={list.id} value={list.id}>
                  {list.name}
                </option>
              ))}
            </Form.Select>
          </Form.Group>
        )}
        <Button type="submit" disabled={busy}>
          Create
        </Button>
      </Form>
      {busy && <LoadingSpinner />}
      {error !== null && (
        <p className="text-danger mt-3" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
