import { type FormEvent, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import ListGroup from 'react-bootstrap/ListGroup';
import { Link } from 'react-router';
import { MAX_TASK_LIST_NAME, type TaskList } from '../../../../contract/task-lists.ts';
import { BackButton } from '../../components/back-button.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { type ListDraft, ListEditor, settleList } from '../../components/list-editor.tsx';
import { NewNameForm } from '../../components/new-name-form.tsx';
import { LoadingSpinner } from '../../components/loading-spinner.tsx';
import { OperationError } from '../../components/operation-error.tsx';
import { useListChanges } from '../../lib/use-list-changes.ts';
import { parseEmail } from './task-checks.ts';
import { useCreateTaskListMutation, useDeleteTaskListMutation, useShareTaskListMutation, useTaskListsQuery } from './task-lists.api.ts';

const namesOf = (list: TaskList) => list.people.map((person) => person.display_name).join(', ');

/** Household lists (docs/behaviour/task-lists.md): the caller's own, a new one named here and shared by e-mail, and those shared with them. */
export function TaskListsPage() {
  const [createList] = useCreateTaskListMutation();
  const [deleteList] = useDeleteTaskListMutation();
  const [shareList] = useShareTaskListMutation();
  const { items, busy, error, change } = useListChanges(useTaskListsQuery());
  const [deleting, setDeleting] = useState<TaskList | null>(null);

  const mine = items?.filter((list) => list.owned) ?? [];
  const shared = items?.filter((list) => !list.owned) ?? [];
  return (
    <section id="task-lists">
      <nav className="d-flex gap-2 mb-3" aria-label="Task navigation">
        <BackButton list="/task" />
      </nav>
      <h1 className="h4">Lists</h1>
      <p className="text-muted small">Share a list with people of this server by their e-mail; they see its tasks and complete them, and a task may be assigned to one of them or go round them in turn.</p>
      <OperationError message={error} id="task-lists-error" />
      <NewNameForm id="task-list" label="New list" placeholder="e.g. Household" maxLength={MAX_TASK_LIST_NAME} busy={busy} onCreate={(name) => change(() => createList(name).unwrap())} />
      {items === null && busy && <LoadingSpinner />}
      <ListGroup id="my-task-lists" className="mb-4">
        {mine.map((list) => (
          <ListGroup.Item key={list.id} className="task-list-entry" data-list={list.name}>
            <div className="d-flex align-items-center gap-2">
              <Link to={`/task?list=${encodeURIComponent(list.id)}`} className="fw-semibold flex-grow-1">
                {list.name}
              </Link>
              <Button size="sm" variant="outline-danger" onClick={() => setDeleting(list)}>
                Delete
              </Button>
            </div>
            <small className="d-block text-muted">{`People: ${namesOf(list)}`}</small>
            <ListSharing list={list} busy={busy} onShare={(emails) => change(() => shareList({ id: list.id, emails }).unwrap())} />
          </ListGroup.Item>
        ))}
      </ListGroup>
      <h2 className="h5">Shared with you</h2>
      {shared.length === 0 ? (
        <p className="text-muted" id="shared-task-lists-none">No one shares a list with you yet.</p>
      ) : (
        <ListGroup id="shared-task-lists">
          {shared.map((list) => (
            <ListGroup.Item key={list.id} className="task-list-entry" data-list={list.name}>
              <Link to={`/task?list=${encodeURIComponent(list.id)}`} className="fw-semibold">
                {list.name}
              </Link>
              <small className="d-block text-muted">{`People: ${namesOf(list)}`}</small>
            </ListGroup.Item>
          ))}
        </ListGroup>
      )}
      <ConfirmDialog
        show={deleting !== null}
        title="Delete this list?"
        body={`“${deleting?.name ?? ''}” will be deleted; each of its tasks goes back to whoever made it, as their own task.`}
        confirm="Delete"
        busy={busy}
        onConfirm={() => void change(() => deleteList(deleting?.id ?? '').unwrap()).then(() => setDeleting(null))}
        onCancel={() => setDeleting(null)}
      />
    </section>
  );
}

/** The owner's editor of whom the list is shared with, by e-mail address. */
function ListSharing({ list, busy, onShare }: { list: TaskList; busy: boolean; onShare: (emails: string[]) => Promise<boolean> }) {
  const members = list.people.filter((person) => person.id !== list.owner_id).flatMap((person) => (person.email === null ? [] : [person.email]));
  const [draft, setDraft] = useState<ListDraft<string>>({ items: members, text: '' });
  const [problem, setProblem] = useState<string | null>(null);

  function save(event: FormEvent) {
    event.preventDefault();
    const settled = settleList(draft, parseEmail);
    if ('problem' in settled) {
      setProblem(settled.problem);
      return;
    }
    setProblem(null);
    void onShare(settled.items).then((saved) => saved && setDraft({ items: settled.items, text: '' }));
  }

  return (
    <Form onSubmit={save} className="mt-2">
      <Form.Label htmlFor={`task-list-members-${list.id}`} className="small mb-1">
        Shared with
      </Form.Label>
      <ListEditor id={`task-list-members-${list.id}`} label="e-mail address" draft={draft} onChange={setDraft} parse={parseEmail} onRefused={setProblem} inputMode="email" />
      {problem !== null && <small className="d-block text-danger">{problem}</small>}
      <Button type="submit" size="sm" className="mt-1 task-list-share" disabled={busy}>
        Save sharing
      </Button>
    </Form>
  );
}
