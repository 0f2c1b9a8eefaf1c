import { type FormEvent, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';

interface BookmarkBulkBarProps {
  selected: number;
  loaded: number;
  onSelectAll: () => void;
  onClear: () => void;
  /** Each says whether it worked, so that the bar knows when to let go. */
  onDelete: () => Promise<boolean>;
  onAddTag: (tag: string) => Promise<boolean>;
}

/** linkding's bulk edit: what to do with the bookmarks selected on the list. */
export function BookmarkBulkBar({ selected, loaded, onSelectAll, onClear, onDelete, onAddTag }: BookmarkBulkBarProps) {
  const [tag, setTag] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [working, setWorking] = useState(false);

  async function work(action: () => Promise<boolean>) {
    setWorking(true);
    const done = await action();
    setWorking(false);
    return done;
  }

  async function addTag(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (tag.trim() === '') return;
    if (await work(() => onAddTag(tag.trim()))) setTag('');
  }

  return (
    <div className="d-flex flex-wrap align-items-center gap-2 mb-3" id="bookmark-bulk-bar">
      <span className="small">{`${selected} selected`}</span>
      <Button size="sm" variant="outline-secondary" onClick={onSelectAll} disabled={selected === loaded}>
        Select all
      </Button>
      <Button size="sm" variant="outline-secondary" onClick={onClear} disabled={selected === 0}>
        Clear selection
      </Button>
      <Form className="d-flex" onSubmit={(event) => void addTag(event)}>
        <InputGroup size="sm">
          <Form.Control aria-label="Tag to add" placeholder="Tag" value={tag} onChange={(event) => setTag(event.target.value)} />
          <Button type="submit" variant="outline-primary" disabled={selected === 0 || working || tag.trim() === ''}>
            Add tag
          </Button>
        </InputGroup>
      </Form>
      <Button size="sm" variant="outline-danger" disabled={selected === 0 || working} onClick={() => setConfirming(true)}>
        Delete selected
      </Button>
      <ConfirmDialog
        show={confirming}
        title={`Delete ${selected} bookmarks?`}
        body="The selected bookmarks and their search index entries will be deleted. This cannot be undone."
        confirm="Delete"
        busy={working}
        onConfirm={() => void work(onDelete).then(() => setConfirming(false))}
        onCancel={() => setConfirming(false)}
      />
    </div>
  );
}
