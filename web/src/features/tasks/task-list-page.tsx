import { useEffect } from 'react';
import Button from 'react-bootstrap/Button';
import Badge from 'react-bootstrap/Badge';
import ListGroup from 'react-bootstrap/ListGroup';
import Nav from 'react-bootstrap/Nav';
import { useSelector } from 'react-redux';
import { Link } from 'react-router';
import { NO_MORE_RESULTS, TaskStatus } from '../../../../contract/tasks.ts';
import { useApiClient } from '../../api/api-client-context.ts';
import { LoadingSpinner } from '../../components/loading-spinner.tsx';
import { OperationError } from '../../components/operation-error.tsx';
import { useRequest } from '../../lib/use-request.ts';
import { selectTasks, statusChosen, useTasksDispatch } from './tasks.slice.ts';
import { loadMoreTasks, loadTasks } from './tasks.thunks.ts';
import { formatTaskTime } from './task-time.ts';
import { useTaskZone } from './use-task-zone.ts';

const STATUS_TABS = [
  { status: 'active', label: 'Active' },
  { status: 'done', label: 'Done' },
  { status: 'all', label: 'All' },
] as const;

/** The spec's heading for active tasks; the same words for the other lists. */
function heading(count: number, status: TaskStatus): string {
  if (count === 0) return 'No task found';
  return status === 'all' ? `Found ${count} tasks` : `Found ${count} ${status} tasks`;
}

export function TaskListPage() {
  const client = useApiClient();
  const dispatch = useTasksDispatch();
  const zone = useTaskZone();
  const { tasks, pageSize, status, pageCursor, operationError } = useSelector(selectTasks);
  const { busy, run, cancel } = useRequest();

  useEffect(() => {
    void run((signal) => dispatch(loadTasks(client, signal)));
    return cancel;
  }, [client, dispatch, run, cancel, pageSize, status]);

  const more = pageCursor !== null && pageCursor !== NO_MORE_RESULTS;

  return (
    <section id="task-list">
      <OperationError message={operationError} id="task-operation-error" />
      <Nav variant="pills" className="mb-3" activeKey={status} onSelect={(key) => key && dispatch(statusChosen(TaskStatus.parse(key)))}>
        {STATUS_TABS.map((tab) => (
          <Nav.Item key={tab.status}>
            <Nav.Link eventKey={tab.status} as="button" type="button">
              {tab.label}
            </Nav.Link>
          </Nav.Item>
        ))}
      </Nav>
      <h1 className="h4 mb-3">{heading(tasks.length, status)}</h1>
      <ListGroup className="mb-3">
        {tasks.map((task) => (
          <ListGroup.Item key={task.id} action as={Link} to={`/task/${encodeURIComponent(task.id)}`} className="task-item">
            <div className="fw-semibold">
              {task.name}
              {!task.active && (
                <Badge bg="secondary" className="ms-2">
                  done
                </Badge>
              )}
            </div>
            <small className="d-block">{`Due time: ${formatTaskTime(task.schedule_time, zone)}`}</small>
            <small className="d-block">{`Pending notice: ${formatTaskTime(task.next_notice_time, zone)}`}</small>
          </ListGroup.Item>
        ))}
      </ListGroup>
      {busy && <LoadingSpinner />}
      {more && !busy && (
        <Button variant="outline-primary" onClick={() => void run((signal) => dispatch(loadMoreTasks(client, signal)))}>
          Get More
        </Button>
      )}
    </section>
  );
}
