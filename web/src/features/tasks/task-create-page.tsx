import { type FormEvent, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../api/api-error.ts';
import { useApiClient } from '../../api/api-client-context.ts';
import { LoadingSpinner } from '../../components/loading-spinner.tsx';
import { createTask } from './tasks.api.ts';
import { taskCreated, useTasksDispatch } from './tasks.slice.ts';
import { fromLocalInput } from './task-time.ts';
import { useTaskZone } from './use-task-zone.ts';

type Problems = { name?: string; time?: string };

export function TaskCreatePage() {
  const client = useApiClient();
  const dispatch = useTasksDispatch();
  const navigate = useNavigate();
  const zone = useTaskZone();
  const [name, setName] = useState('');
  const [time, setTime] = useState('');
  const [problems, setProblems] = useState<Problems>({});
  const [error, setError] = useState<string | null>(null);
  const [waiting, setWaiting] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const firstTime = fromLocalInput(time, zone);
    const found: Problems = {
      ...(name.trim() === '' ? { name: 'task name is required' } : {}),
      ...(firstTime === null ? { time: 'Event time is required' } : {}),
    };
    setProblems(found);
    if (firstTime === null || found.name) return;
    setWaiting(true);
    setError(null);
    try {
      const task = await createTask(client, { name: name.trim(), first_schedule_time: firstTime, schedule_type: 'd' });
      dispatch(taskCreated(task));
      void navigate(`/task/${encodeURIComponent(task.id)}`);
    } catch (failure) {
      console.error('The task could not be created', failure);
      setError(errorMessage(failure));
      setWaiting(false);
    }
  };

  return (
    <section id="task-create">
      <h1 className="h4 mb-3">New task</h1>
      <Form noValidate onSubmit={(event) => void submit(event)}>
        <Form.Group className="mb-3" controlId="task-name">
          <Form.Label>name</Form.Label>
          <Form.Control placeholder="Task name" value={name} isInvalid={Boolean(problems.name)} onChange={(event) => setName(event.target.value)} />
          <Form.Control.Feedback type="invalid">{problems.name}</Form.Control.Feedback>
        </Form.Group>
        <Form.Group className="mb-3" controlId="task-first-schedule-time">
          <Form.Label>first_schedule_time</Form.Label>
          <Form.Control type="datetime-local" value={time} isInvalid={Boolean(problems.time)} onChange={(event) => setTime(event.target.value)} />
          <Form.Control.Feedback type="invalid">{problems.time}</Form.Control.Feedback>
        </Form.Group>
        <Button type="submit" disabled={waiting}>
          Create
        </Button>
      </Form>
      {waiting && <LoadingSpinner />}
      {error !== null && (
        <p className="text-danger mt-3" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
