import { useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import ListGroup from 'react-bootstrap/ListGroup';
import { useSelector } from 'react-redux';
import { Link } from 'react-router';
import { NO_MORE_RESULTS } from '../../../../contract/tasks.ts';
import { errorMessage } from '../../api/api-error.ts';
import { useApiClient } from '../../api/api-client-context.ts';
import { LoadingSpinner } from '../../components/loading-spinner.tsx';
import { OperationError } from './operation-error.tsx';
import { fetchTaskPage } from './tasks.api.ts';
import { errorReported, selectTasks, tasksAppended, tasksReceived, useTasksDispatch } from './tasks.slice.ts';
import { formatTaskTime } from './task-time.ts';
import { useTaskZone } from './use-task-zone.ts';

export function TaskListPage() {
  const client = useApiClient();
  const dispatch = useTasksDispatch();
  const zone = useTaskZone();
  const { tasks, pageSize, pageCursor } = useSelector(selectTasks);
  const [loading, setLoading] = useState(true);

  useEffect(() => {
    const stop = new AbortController();
    fetchTaskPage(client, pageSize, null, stop.signal)
      .then((page) => dispatch(tasksReceived(page)))
      // A failed load is only logged (spec §8).
      .catch((error: unknown) => {
        if (!stop.signal.aborted) console.error('The tasks could not be loaded', error);
      })
      .finally(() => {
        if (!stop.signal.aborted) setLoading(false);
      });
    return () => stop.abort();
  }, [client, dispatch, pageSize]);

  const getMore = async () => {
    if (pageCursor === null) return;
    setLoading(true);
    try {
      dispatch(tasksAppended(await fetchTaskPage(client, pageSize, pageCursor)));
    } catch (error) {
      dispatch(errorReported(errorMessage(error)));
    } finally {
      setLoading(false);
    }
  };
  const more = pageCursor !== null && pageCursor !== NO_MORE_RESULTS;

  return (
    <section id="task-list">
      <OperationError />
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
      {loading && <LoadingSpinner />}
      {more && !loading && (
        <Button variant="outline-primary" onClick={() => void getMore()}>
          Get More
        </Button>
      )}
    </section>
  );
}
