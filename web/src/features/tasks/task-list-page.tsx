import { useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Badge from 'react-bootstrap/Badge';
import Form from 'react-bootstrap/Form';
import ListGroup from 'react-bootstrap/ListGroup';
import Nav from 'react-bootstrap/Nav';
import { useSelector } from 'react-redux';
import { Link, useSearchParams } from 'react-router';
import type { TaskList } from '../../../../contract/task-lists.ts';
import { NO_MORE_RESULTS, OWN_TASKS, type Task, TaskStatus } from '../../../../contract/tasks.ts';
import { useApiDispatch, useCallsUnderWay, useSupersedingLoads } from '../../api/api.ts';
import { LoadingSpinner } from '../../components/loading-spinner.tsx';
import { OperationError } from '../../components/operation-error.tsx';
import { selectAuth } from '../auth/auth.slice.ts';
import { useTaskListsQuery } from './task-lists.api.ts';
import { listOf, turnLabel } from './task-list-people.ts';
import { listChosen, selectTasks, statusChosen, useTasksDispatch } from './tasks.slice.ts';
import { completeCurrentTask, loadMoreTasks, loadTasks } from './tasks.thunks.ts';
import { TaskDoneList } from './task-done-list.tsx';
import { taskListHeading } from './task-headings.ts';
import { formatTaskTime } from './task-time.ts';
import { useTaskZone } from './use-task-zone.ts';

const STATUS_TABS = [
  { status: 'active', label: 'Active' },
  { status: 'done', label: 'Done' },
  { status: 'all', label: 'All' },
] as const;

export function TaskListPage() {
  const dispatch = useTasksDispatch();
  const zone = useTaskZone();
  const { pageSize, status } = useSelector(selectTasks);
  const lists = useTaskListsQuery().data;
  // The list shown is in the address, so a list's link opens the task list on it.
  const [search, setSearch] = useSearchParams();
  const list = search.get('list');

  useEffect(() => {
    dispatch(listChosen(list));
  }, [dispatch, list]);

  return (
    <section id="task-list">
      <div className="d-flex flex-wrap align-items-center gap-2 mb-3">
        <Nav variant="pills" activeKey={status} onSelect={(key) => key && dispatch(statusChosen(TaskStatus.parse(key)))}>
          {STATUS_TABS.map((tab) => (
            <Nav.Item key={tab.status}>
              <Nav.Link eventKey={tab.status} as="button" type="button">
                {tab.label}
              </Nav.Link>
            </Nav.Item>
          ))}
        </Nav>
        {status !== 'done' && (
          <ListFilter lists={lists ?? []} value={list} onChange={(next) => setSearch(next === null ? {} : { list: next })} />
        )}
        <Link to="/task/lists" className="btn btn-outline-secondary ms-auto" id="task-lists-link">
          Lists
        </Link>
        <Link to={list === null || list === OWN_TASKS ? '/task/create' : `/task/create?list=${encodeURIComponent(list)}`} className="btn btn-primary" id="task-new">
          New task
        </Link>
      </div>
      {status === 'done' ? <TaskDoneList pageSize={pageSize} zone={zone} /> : <TaskPages zone={zone} lists={lists} />}
    </section>
  );
}

/** Which tasks the list shows: every one, the caller's own, or one household list's (docs/behaviour/task-lists.md). */
function ListFilter({ lists, value, onChange }: { lists: TaskList[]; value: string | null; onChange: (list: string | null) => void }) {
  if (lists.length === 0 && value === null) return null;
  return (
    <Form.Select
      id="task-list-filter"
      aria-label="List"
      size="sm"
      style={{ width: 'auto' }}
      value={value ?? ''}
      onChange={(event) => onChange(event.target.value === '' ? null : event.target.value)}
    >
      <option value="">All lists</option>
      <option value={OWN_TASKS}>My own tasks</option>
      {lists.map((list) => (
        <option key={list.id} value={list.id}>
          {list.name}
        </option>
      ))}
    </Form.Select>
  );
}

/** Active or all tasks, a page at a time, each with its tick to complete it. */
function TaskPages({ zone, lists }: { zone: string; lists: TaskList[] | undefined }) {
  const calls = useApiDispatch();
  const dispatch = useTasksDispatch();
  const auth = useSelector(selectAuth);
  const me = auth.authenticated ? auth.uid : null;
  const { tasks, pageSize, status, list, pageCursor, operationError } = useSelector(selectTasks);
  const busy = useCallsUnderWay('taskPage');
  const { next: nextLoad } = useSupersedingLoads();
  const [completing, setCompleting] = useState<string | null>(null);
  // Overdue as of when the list was opened: it loads again each time it is.
  const [now] = useState(Date.now);

  useEffect(() => {
    void dispatch(loadTasks(calls, nextLoad()));
  }, [calls, dispatch, nextLoad, pageSize, status, list]);

  const complete = async (task: Task) => {
    setCompleting(task.id);
    await dispatch(completeCurrentTask(calls, task.id));
    setCompleting(null);
  };

  const more = pageCursor !== null && pageCursor !== NO_MORE_RESULTS;

  return (
    <>
      <OperationError message={operationError} id="task-operation-error" />
      <h1 className="h4 mb-3">{taskListHeading(tasks.length, status)}</h1>
      <ListGroup className="mb-3">
        {tasks.map((task) => {
          const overdue = task.active && Date.parse(task.schedule_time) < now;
          const listName = listOf(task, lists)?.name;
          const turn = turnLabel(task, lists, me);
          return (
            <ListGroup.Item key={task.id} className="d-flex align-items-start gap-3 task-row">
              {task.active && (
                <Form.Check
                  id={`task-complete-${task.id}`}
                  className="mt-1 task-complete"
                  aria-label={`Complete ${task.name}`}
                  title="Complete"
                  checked={completing === task.id}
                  disabled={completing !== null}
                  onChange={() => void complete(task)}
                />
              )}
              <Link to={`/task/${encodeURIComponent(task.id)}`} className="task-item flex-grow-1 text-reset text-decoration-none">
                <div className="fw-semibold">
                  {task.name}
                  {!task.active && (
                    <Badge bg="secondary" className="ms-2">
                      done
                    </Badge>
                  )}
                  {listName !== undefined && (
                    <Badge bg="light" text="dark" className="ms-2 border task-list-badge">
                      {listName}
                    </Badge>
                  )}
                </div>
                {turn !== null && <small className="d-block task-turn">{turn}</small>}
                <small className={overdue ? 'd-block text-danger task-overdue' : 'd-block'}>
                  {`Due time: ${formatTaskTime(task.schedule_time, zone)}${overdue ? ' (overdue)' : ''}`}
                </small>
                <small className="d-block">{`Pending notice: ${formatTaskTime(task.next_notice_time, zone)}`}</small>
              </Link>
            </ListGroup.Item>
          );
        })}
      </ListGroup>
      {busy && <LoadingSpinner />}
      {more && !busy && (
        <Button variant="outline-primary" onClick={() => void dispatch(loadMoreTasks(calls, nextLoad()))}>
          Get More
        </Button>
      )}
    </>
  );
}
