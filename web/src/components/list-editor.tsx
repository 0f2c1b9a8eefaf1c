import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';

interface ListEditorProps<T> {
  id: string;
  label: string;
  items: readonly T[];
  onChange: (items: T[]) => void;
  /** The item typed, or null when it may not be added. */
  parse: (text: string) => T | null;
  inputMode?: 'text' | 'email' | 'numeric';
}

/** An editable list (spec §5): each item can be removed; empty input, or input `parse` refuses, is not added. */
export function ListEditor<T extends string | number>({ id, label, items, onChange, parse, inputMode = 'text' }: ListEditorProps<T>) {
  const [text, setText] = useState('');
  const add = () => {
    if (text.trim() === '') return;
    const item = parse(text.trim());
    if (item === null) return;
    onChange([...items, item]);
    setText('');
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
              onClick={() => onChange(items.filter((_, i) => i !== at))}
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
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
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

/** Number lists take whole numbers only. */
export function parseInteger(text: string): number | null {
  return /^\d+$/.test(text) ? Number(text) : null;
}
