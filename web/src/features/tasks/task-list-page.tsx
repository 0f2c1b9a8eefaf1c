import { useEffect } from 'react';
import Button from 'react-bootstrap/Button';
import ListGroup from 'react-bootstrap/ListGroup';
import { useSelector } from 'react-redux';
import { Link } from 'react-router';
import { NO_MORE_RESULTS } from '../../../../contract/tasks.ts';
import { useApiClient } from '../../api/api-client-context.ts';
import { LoadingSpinner } from '../../components/loading-spinner.tsx';
import { OperationError } from '../../components/operation-error.tsx';
import { useRequest } from '../../lib/use-request.ts';
import { selectTasks, useTasksDispatch } from './tasks.slice.ts';
import { loadMoreTasks, loadTasks } from './tasks.thunks.ts';
import { formatTaskTime } from './task-time.ts';
import { useTaskZone } from './use-task-zone.ts';

export function TaskListPage() {
  const client = useApiClient();
  const dispatch = useTasksDispatch();
  const zone = useTaskZone();
  const { tasks, pageSize, pageCursor, operationError } = useSelector(selectTasks);
  const { busy, run, cancel } = useRequest();

  useEffect(() => {
    void run((signal) => dispatch(loadTasks(client, signal)));
    return cancel;
  }, [client, dispatch, run, cancel, pageSize]);

  const more = pageCursor !== null && pageCursor !== NO_MORE_RESULTS;

  return (
    <section id="task-list">
      <OperationError message={operationError} id="task-operation-error" />
      <h1 className="h4 mb-3">{tasks.length > 0 ? `Found ${tasks.length} active tasks` : 'No task found'}</h1>
      <ListGroup className="mb-3">
        {tasks.map((task) => (
          <ListGroup.Item key={task.id} action as={Link} to={`/task/${encodeURIComponent(task.id)}`} className="task-item">
            <div className="fw-semibold">{task.name}</div>
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
