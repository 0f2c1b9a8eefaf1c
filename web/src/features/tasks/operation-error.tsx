import { useSelector } from 'react-redux';
import { selectTasks } from './tasks.slice.ts';

/** The last failed task call, in red above the content (spec §8). */
export function OperationError() {
  const { operationError } = useSelector(selectTasks);
  if (operationError === null) return null;
  return (
    <p className="text-danger" role="alert" id="task-operation-error">
      {operationError}
    </p>
  );
}
