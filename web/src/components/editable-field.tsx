import { type FormEvent, type ReactNode, useState } from 'react';
import Button from 'react-bootstrap/Button';

interface EditableFieldProps<T> {
  /** The value's element id; its editor's input gets `{id}-input`. */
  id: string;
  label: string;
  value: T;
  show: (value: T) => ReactNode;
  editor: (draft: T, setDraft: (next: T) => void, inputId: string) => ReactNode;
  /** Resolves true once saved; false leaves the editor open with the draft. */
  onSave: (draft: T) => Promise<boolean>;
}

/** A value that turns into its editor on click, with Save and Cancel (spec §2 Task detail, Bookmark detail). */
export function EditableField<T>({ id, label, value, show, editor, onSave }: EditableFieldProps<T>) {
  const [draft, setDraft] = useState<T | null>(null);
  const [saving, setSaving] = useState(false);

  if (draft === null) {
    return (
      <button type="button" id={id} className="btn btn-link p-0 text-start text-break editable-value" title={`Edit ${label}`} onClick={() => setDraft(value)}>
        {show(value)}
      </button>
    );
  }

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    const saved = await onSave(draft);
    setSaving(false);
    if (saved) setDraft(null);
  };

  return (
    <form onSubmit={(event) => void save(event)} aria-label={`Edit ${label}`}>
      {editor(draft, setDraft, `${id}-input`)}
      <div className="d-flex gap-2 mt-1">
        <Button type="submit" size="sm" disabled={saving}>
          Save
        </Button>
        <Button type="button" size="sm" variant="outline-secondary" onClick={() => setDraft(null)} disabled={saving}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
