import { type FormEvent, type KeyboardEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';

interface EditableFieldProps<T> {
  /** The value's element id; its editor's input gets `{id}-input`. */
  id: string;
  label: string;
  value: T;
  show: (value: T) => ReactNode;
  /**
   * The value together with its own edit control, for a value that does something when clicked (a
   * link opens its page); without it the value itself is the button that opens the editor.
   */
  display?: (value: T, edit: () => void) => ReactNode;
  /** `refuse` shows why a part of the draft was not taken (a list item that cannot be added, say). */
  editor: (draft: T, setDraft: (next: T) => void, inputId: string, refuse: (problem: string) => void) => ReactNode;
  /** Why the draft cannot be saved (in people's words), or null when it can: checked before anything is sent. */
  check?: (draft: T) => string | null;
  /** Resolves true once saved; false leaves the editor open with the draft. */
  onSave: (draft: T) => Promise<boolean>;
}

/**
 * A value that turns into its editor on click, with Save and Cancel (docs/behaviour/screens.md, Bookmark
 * detail). The editor takes the focus; Esc cancels and Enter saves (Ctrl+Enter in a text area,
 * where Enter starts a new line); a draft `check` refuses is not sent, and the reason shows under it.
 */
export function EditableField<T>({ id, label, value, show, display, editor, check, onSave }: EditableFieldProps<T>) {
  const [draft, setDraft] = useState<T | null>(null);
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const form = useRef<HTMLFormElement>(null);
  const inputId = `${id}-input`;
  const problemId = `${id}-problem`;
  const open = draft !== null;

  useEffect(() => {
    if (open) document.getElementById(inputId)?.focus();
  }, [open, inputId]);

  const close = () => {
    setDraft(null);
    setProblem(null);
  };

  if (draft === null) {
    if (display) return display(value, () => setDraft(value));
    return (
      <button type="button" id={id} className="btn btn-link p-0 text-start text-break editable-value" title={`Edit ${label}`} onClick={() => setDraft(value)}>
        {show(value)}
      </button>
    );
  }

  const change = (next: T) => {
    setDraft(next);
    setProblem(null);
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    const refused = check?.(draft) ?? null;
    setProblem(refused);
    if (refused !== null) return;
    setSaving(true);
    const saved = await onSave(draft);
    setSaving(false);
    if (saved) close();
  };

  const keys = (event: KeyboardEvent<HTMLFormElement>) => {
    if (event.key === 'Escape') {
      // The editor's own Esc (a list editor's input, say) has had its turn: this one closes the editor.
      event.preventDefault();
      event.stopPropagation();
      if (!saving) close();
      return;
    }
    if (event.key !== 'Enter' || event.defaultPrevented || event.nativeEvent.isComposing) return;
    const multiline = event.target instanceof HTMLTextAreaElement;
    if (multiline && !(event.ctrlKey || event.metaKey)) return;
    // A select or a text area does not submit its form on Enter by itself.
    if (multiline || event.target instanceof HTMLSelectElement) {
      event.preventDefault();
      form.current?.requestSubmit();
    }
  };

  return (
    <form ref={form} onSubmit={(event) => void save(event)} onKeyDown={keys} aria-label={`Edit ${label}`} noValidate>
      {editor(draft, change, inputId, setProblem)}
      {problem !== null && (
        <div className="invalid-feedback d-block field-problem" id={problemId} role="alert">
          {problem}
        </div>
      )}
      <div className="d-flex gap-2 mt-1">
        <Button type="submit" size="sm" disabled={saving}>
          Save
        </Button>
        <Button type="button" size="sm" variant="outline-secondary" onClick={close} disabled={saving}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
