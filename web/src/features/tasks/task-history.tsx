import { useEffect } from 'react';
import type { ChecklistItem } from '../../../../contract/tasks.ts';
import Table from 'react-bootstrap/Table';
import { useCompletionsQuery } from './tasks.api.ts';
import { formatTaskTime } from './task-time.ts';

/**
 * Each Complete of the task, newest first: which occurrence (its due time) and when. Loaded again
 * whenever the task changes (`version`), so a Complete shows at once.
 */
export function TaskHistory({ id, version, zone }: { id: string; version: string; zone: string }) {
  const { data: completions, error } = useCompletionsQuery({ id, version });

  useEffect(() => {
    // The history is beside the task, not part of it: a failure is only logged, as a list load's is.
    if (error !== undefined) console.error('The task history could not be loaded', error);
  }, [error]);

  if (completions === undefined) return null;
  // The checklist as it was at each Complete, where the task had one.
  const withChecklist = completions.some((completion) => (completion.checklist ?? []).length > 0);
  return (
    <section id="task-history" className="mt-4">
      <h2 className="h5">History</h2>
      {completions.length === 0 ? (
        <p className="text-body-secondary">Not completed yet</p>
      ) : (
        <Table size="sm" className="w-auto">
          <thead>
            <tr>
              <th scope="col">Completed</th>
              <th scope="col">Occurrence due</th>
              {withChecklist && <th scope="col">Checklist</th>}
            </tr>
          </thead>
          <tbody>
            {completions.map((completion) => (
              <tr key={`${completion.completed_at} ${completion.due_time}`} className="task-completion">
                <td>{formatTaskTime(completion.completed_at, zone)}</td>
                <td>{formatTaskTime(completion.due_time, zone)}</td>
                {withChecklist && <td>{checklistState(completion.checklist)}</td>}
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </section>
  );
}

/** "2 of 3 ticked: Floors, Windows" */
function checklistState(items: ChecklistItem[] | null): string {
  if (items === null || items.length === 0) return '—';
  const ticked = items.filter((item) => item.done);
  return `${ticked.length} of ${items.length} ticked${ticked.length > 0 ? `: ${ticked.map((item) => item.text).join(', ')}` : ''}`;
}
