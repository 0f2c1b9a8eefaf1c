import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { PASSWORD_MIN_LENGTH, RegisterBody } from '../../../../contract/auth.ts';
import { TextField } from '../../components/text-field.tsx';
import { register } from './auth.api.ts';
import { useSignIn } from './use-sign-in.ts';

const LABELS = { displayName: 'Name', email: 'E-mail', password: 'Password' } as const;

export function RegisterForm() {
  const [displayName, setDisplayName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { submit, busy, error } = useSignIn(RegisterBody, register, LABELS);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void submit({ displayName, email, password });
  }

  return (
    <Form noValidate onSubmit={onSubmit} aria-label="Create account">
      {error !== null && <Alert variant="danger">{error}</Alert>}
      <TextField
        id="displayName"
        label={LABELS.displayName}
        autoComplete="name"
        value={displayName}
        onChange={setDisplayName}
      />
      <TextField
        id="email"
        label={LABELS.email}
        type="email"
        autoComplete="email"
        value={email}
        onChange={setEmail}
      />
      <TextField
        id="password"
        label={LABELS.password}
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={setPassword}
        hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
      />
      <Button type="submit" disabled={busy}>
        Create account
      </Button>
    </Form>
  );
}
