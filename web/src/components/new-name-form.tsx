import { type FormEvent, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';

interface NewNameFormProps {
  /** The prefix of the field's and the button's ids: `${id}-name`, `${id}-create`. */
  id: string;
  label: string;
  placeholder: string;
  maxLength: number;
  busy: boolean;
  /** Makes the named thing; the field empties when it answers true. */
  onCreate: (name: string) => Promise<boolean>;
}

/** A new collection named in one field: a shelf, a household list. */
export function NewNameForm({ id, label, placeholder, maxLength, busy, onCreate }: NewNameFormProps) {
  const [name, setName] = useState('');

  function create(event: FormEvent) {
    event.preventDefault();
    void onCreate(name).then((made) => made && setName(''));
  }

  return (
    <Form onSubmit={create} className="mb-3">
      <Form.Label htmlFor={`${id}-name`}>{label}</Form.Label>
      <InputGroup>
        <Form.Control id={`${id}-name`} placeholder={placeholder} value={name} maxLength={maxLength} onChange={(event) => setName(event.target.value)} />
        <Button type="submit" id={`${id}-create`} disabled={busy || name.trim() === ''}>
          Create
        </Button>
      </InputGroup>
    </Form>
  );
}
