import type { ReactNode } from 'react';
import Form from 'react-bootstrap/Form';

interface TextFieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  type?: 'text' | 'email' | 'password';
  autoComplete?: string;
  hint?: ReactNode;
}

export function TextField({ id, label, value, onChange, type = 'text', autoComplete, hint }: TextFieldProps) {
  return (
    <Form.Group controlId={id} className="mb-3">
      <Form.Label>{label}</Form.Label>
      <Form.Control
        type={type}
        value={value}
        autoComplete={autoComplete}
        onChange={(event) => onChange(event.target.value)}
      />
      {hint !== undefined && <Form.Text muted>{hint}</Form.Text>}
    </Form.Group>
  );
}
