import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import type { Shelf, ShelfAccess } from '../../../../contract/shelves.ts';
import { OperationError } from '../../components/operation-error.tsx';
import { useListChanges } from '../../lib/use-list-changes.ts';
import { useHouseholdQuery, useShareShelfMutation } from './shelves.api.ts';

type Choice = ShelfAccess | 'none';
const CHOICES: Array<[Choice, string]> = [
  ['none', 'Not shared'],
  ['see', 'May see it'],
  ['add', 'May see and add'],
];

/** Whom the owner shares a named shelf with, each member of the household to see it or to add to it too. */
export function ShelfSharing({ shelf }: { shelf: Shelf }) {
  const [shareShelf] = useShareShelfMutation();
  const { items: household, busy, error, change } = useListChanges(useHouseholdQuery());
  const kept = Object.fromEntries(shelf.members.map((member): [string, Choice] => [member.user_id, member.access]));
  const [choices, setChoices] = useState<Record<string, Choice>>(kept);
  const [saved, setSaved] = useState(false);
  if (household === null || household.length === 0) return null;

  const save = () =>
    void change(async () => {
      const members = Object.entries(choices).flatMap(([user_id, access]) => (access === 'none' ? [] : [{ user_id, access }]));
      await shareShelf({ id: shelf.id, members }).unwrap();
      setSaved(true);
    });

  return (
    <details className="mb-3" id="shelf-sharing">
      <summary>{shelf.members.length === 0 ? 'Share' : `Shared with ${shelf.members.map((member) => member.display_name).join(', ')}`}</summary>
      <OperationError message={error} />
      <ul className="list-unstyled my-2">
        {household.map((member) => (
          <li key={member.id} className="d-flex align-items-center gap-2 mb-1">
            <Form.Label htmlFor={`share-${member.id}`} className="mb-0 flex-grow-1">
              {member.display_name}
            </Form.Label>
            <Form.Select
              id={`share-${member.id}`}
              size="sm"
              style={{ width: 'auto' }}
              value={choices[member.id] ?? 'none'}
              onChange={(event) => {
                setSaved(false);
                setChoices({ ...choices, [member.id]: event.target.value as Choice });
              }}
            >
              {CHOICES.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </Form.Select>
          </li>
        ))}
      </ul>
      <Button size="sm" id="shelf-share-save" disabled={busy} onClick={save}>
        Save sharing
      </Button>
      {saved && <span className="ms-2 text-success small" id="shelf-share-saved">Saved</span>}
    </details>
  );
}
