import { useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { useSelector } from 'react-redux';
import { useNavigate, useParams } from 'react-router';
import { useApiDispatch, useCallsUnderWay } from '../../api/api.ts';
import { BackButton } from '../../components/back-button.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { LoadingSpinner } from '../../components/loading-spinner.tsx';
import { OperationError } from '../../components/operation-error.tsx';
import { selectAuth } from '../auth/auth.slice.ts';
import { useTaskListsQuery } from './task-lists.api.ts';
import { listOf, personName } from './task-list-people.ts';
import { TaskSharingFields } from './task-sharing-fields.tsx';
import { selectTasks, useTasksDispatch } from './tasks.slice.ts';
import { completeCurrentTask, deleteCurrentTask, openTask, saveTaskField } from './tasks.thunks.ts';
import { TaskChecklist } from './task-checklist.tsx';
import { TaskHistory } from './task-history.tsx';
import { TaskFields } from './task-fields.tsx';
import { TaskZoneNote } from './task-zone-note.tsx';
import { useTaskZone } from './use-task-zone.ts';

export function TaskDetailPage() {
  const { id = '' } = useParams();
  const calls = useApiDispatch();
  const dispatch = useTasksDispatch();
  const zone = useTaskZone();
  const { curTask, operationError } = useSelector(selectTasks);
  const auth = useSelector(selectAuth);
  const busy = useCallsUnderWay('task');
  const [missing, setMissing] = useState<string | null>(null);
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const lists = useTaskListsQuery().data ?? [];
  const me = auth.authenticated ? auth.uid : null;

  useEffect(() => {
    const leave = new AbortController();
    void dispatch(openTask(calls, id, leave.signal)).then((gone) => gone && setMissing(id));
    return () => leave.abort();
  }, [calls, dispatch, id]);

  const task = curTask?.id === id ? curTask : null;

  async function confirmDelete() {
    setDeleting(true);
    const deleted = await dispatch(deleteCurrentTask(calls, id));
    setDeleting(false);
    setConfirming(false);
    if (deleted) void navigate('/task');
  }

  if (task === null) {
    return (
      <section id="task-detail">
        <TaskNavigation />
        <OperationError message={operationError} id="task-operation-error" />
        <h1 className="h4">{!busy && missing === id ? `No task found with id ${id}` : 'Task'}</h1>
        {busy && <LoadingSpinner />}
      </section>
    );
  }

  return (
    <section id="task-detail">
      <TaskNavigation />
      <OperationError message={operationError} id="task-operation-error" />
      <h1 className="h4 mb-3">{task.name}</h1>
      <TaskZoneNote />
      {task.notice_error !== null && (
        <p className="text-danger" id="task-notice-error">
          {task.notice_error}
        </p>
      )}
      <dl className="row mb-0">
        <TaskSharingFields task={task} lists={lists} me={me} onSave={(key, value) => dispatch(saveTaskField(calls, id, key, value))} />
      </dl>
      {/* While it names none, its notices go to whoever's turn it is in a household list, else to the owner. */}
      <TaskFields
        task={task}
        zone={zone}
        noRecipients={
          task.turn_id !== null
            ? `${personName(listOf(task, lists), task.turn_id, me)} (whose turn it is)`
            : auth.authenticated
              ? `${auth.email} (your address)`
              : '—'
        }
        onSave={(key, value) => dispatch(saveTaskField(calls, id, key, value))}
      />
      <TaskChecklist task={task} />
      <div className="d-flex gap-2">
        {task.active && (
          <Button variant="success" onClick={() => void dispatch(completeCurrentTask(calls, id))}>
            Complete
          </Button>
        )}
        <Button variant="outline-danger" className="ms-auto" onClick={() => setConfirming(true)}>
          Delete
        </Button>
      </div>
      <TaskHistory id={id} version={task.last_updated} zone={zone} />
      <ConfirmDialog
        show={confirming}
        title="Delete this task?"
        body={`“${task.name}”, its pending notices and its history will be deleted. This cannot be undone.`}
        confirm="Delete"
        busy={deleting}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setConfirming(false)}
      />
    </section>
  );
}

function TaskNavigation() {
  return (
    <nav className="d-flex gap-2 mb-3" aria-label="Task navigation">
      <BackButton list="/task" />
    </nav>
  );
}
