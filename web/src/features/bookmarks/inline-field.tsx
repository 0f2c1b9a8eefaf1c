import { type FormEvent, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import './bookmarks.css';

interface InlineFieldProps {
  label: string;
  /** The text shown, and the editor's starting value. */
  value: string;
  multiline?: boolean;
  /** Whether it saved; the editor stays open when it did not. */
  onSave: (value: string) => Promise<boolean>;
}

/** Click the value to edit it in place; Save or Cancel (spec §2 Bookmark detail). */
export function InlineField({ label, value, multiline = false, onSave }: InlineFieldProps) {
  const [draft, setDraft] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const id = `bookmark-${label.toLowerCase()}`;

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (draft === null) return;
    setSaving(true);
    const saved = await onSave(draft);
    setSaving(false);
    if (saved) setDraft(null);
  }

  if (draft === null) {
    return (
      <div className="mb-2 inline-field">
        <span className="text-muted small d-block">{label}</span>
        <button type="button" className="btn btn-link p-0 text-start text-break text-body inline-value" id={id} onClick={() => setDraft(value)} title={`Edit ${label}`}>
          {value === '' ? <em className="text-muted">(none)</em> : <span className="inline-text">{value}</span>}
        </button>
      </div>
    );
  }
  return (
    <Form onSubmit={(event) => void save(event)} className="mb-2 inline-field">
      <Form.Label htmlFor={`${id}-input`} className="text-muted small mb-0">
        {label}
      </Form.Label>
      {multiline ? (
        <Form.Control id={`${id}-input`} as="textarea" rows={3} value={draft} autoFocus onChange={(event) => setDraft(event.target.value)} />
      ) : (
        <Form.Control id={`${id}-input`} value={draft} autoFocus onChange={(event) => setDraft(event.target.value)} />
      )}
      <div className="d-flex gap-2 mt-1">
        <Button type="submit" size="sm" disabled={saving}>
          Save
        </Button>
        <Button size="sm" variant="outline-secondary" onClick={() => setDraft(null)} disabled={saving}>
          Cancel
        </Button>
      </div>
    </Form>
  );
}
