import Button from 'react-bootstrap/Button';
import ListGroup from 'react-bootstrap/ListGroup';
import { Link } from 'react-router';
import { errorMessage } from '../../api/api-error.ts';
import { LoadingSpinner } from '../../components/loading-spinner.tsx';
import { OperationError } from '../../components/operation-error.tsx';
import { useDoneInfiniteQuery } from './tasks.api.ts';
import { taskListHeading } from './task-headings.ts';
import { formatTaskTime } from './task-time.ts';

/**
 * The Done list: each occurrence completed, the latest first — a one-off task once, a repeating
 * task once for every occurrence completed — each linking to its task.
 */
export function TaskDoneList({ pageSize, zone }: { pageSize: number; zone: string }) {
  const { data, error, isFetching, hasNextPage, fetchNextPage } = useDoneInfiniteQuery(pageSize);
  const entries = data?.pages.flatMap((page) => page.done) ?? [];

  return (
    <>
      <OperationError message={error === undefined ? null : errorMessage(error)} id="task-operation-error" />
      <h1 className="h4 mb-3">{taskListHeading(entries.length, 'done')}</h1>
      <ListGroup className="mb-3">
        {entries.map((entry) => (
          <ListGroup.Item
            key={`${entry.task_id} ${entry.completed_at} ${entry.due_time}`}
            action
            as={Link}
            to={`/task/${encodeURIComponent(entry.task_id)}`}
            className="task-item task-done-item"
          >
            <div className="fw-semibold">{entry.name}</div>
            <small className="d-block">{`Completed: ${formatTaskTime(entry.completed_at, zone)}`}</small>
            <small className="d-block">{`Due time: ${formatTaskTime(entry.due_time, zone)}`}</small>
          </ListGroup.Item>
        ))}
      </ListGroup>
      {isFetching && <LoadingSpinner />}
      {hasNextPage && !isFetching && (
        <Button variant="outline-primary" onClick={() => void fetchNextPage()}>
          Get More
        </Button>
      )}
    </>
  );
}
