import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';

/** An item typed into a list, or why it cannot be added (in people's words). */
export type ParsedItem<T> = { item: T } | { problem: string };

/** A list being edited: its items, and the text typed but not yet added. */
export interface ListDraft<T> {
  items: T[];
  text: string;
}

/**
 * The list as it would be saved: the text still in the input is added, unless it cannot be, and
 * then the reason is given instead, so that Save never drops what was typed without saying so.
 */
export function settleList<T>({ items, text }: ListDraft<T>, parse: (text: string) => ParsedItem<T>): { items: T[] } | { problem: string } {
  if (text.trim() === '') return { items };
  const parsed = parse(text.trim());
  return 'problem' in parsed ? parsed : { items: [...items, parsed.item] };
}

interface ListEditorProps<T> {
  id: string;
  label: string;
  draft: ListDraft<T>;
  onChange: (draft: ListDraft<T>) => void;
  parse: (text: string) => ParsedItem<T>;
  /** Told why typed text was not added. */
  onRefused: (problem: string) => void;
  inputMode?: 'text' | 'email' | 'numeric';
}

/**
 * An editable list (docs/behaviour/screens.md): each item can be removed; empty input is ignored on Add, input
 * `parse` refuses is not added and the reason is told. Enter adds; Enter on an empty input is
 * left to the enclosing form (it saves the list).
 */
export function ListEditor<T extends string | number>({ id, label, draft, onChange, parse, onRefused, inputMode = 'text' }: ListEditorProps<T>) {
  const { items, text } = draft;
  const add = () => {
    if (text.trim() === '') return;
    const settled = settleList(draft, parse);
    if ('problem' in settled) onRefused(settled.problem);
    else onChange({ items: settled.items, text: '' });
  };
  return (
    <div>
      <ul className="list-inline mb-2">
        {items.map((item, at) => (
          <li key={`${String(item)}-${at}`} className="list-inline-item badge text-bg-light border">
            {String(item)}{' '}
            <button
              type="button"
              className="btn-close btn-close-sm ms-1"
              aria-label={`Remove ${String(item)}`}
              onClick={() => onChange({ items: items.filter((_, i) => i !== at), text })}
            />
          </li>
        ))}
      </ul>
      <InputGroup size="sm">
        <Form.Control
          id={id}
          aria-label={label}
          value={text}
          inputMode={inputMode}
          onChange={(event) => onChange({ items, text: event.target.value })}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && text.trim() !== '') {
              event.preventDefault();
              add();
            }
          }}
        />
        <Button variant="outline-primary" onClick={add}>
          Add
        </Button>
      </InputGroup>
    </div>
  );
}
