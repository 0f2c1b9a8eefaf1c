import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { RegisterBody } from '../../../../contract/auth.ts';
import { NewPasswordField } from '../../components/password-fields.tsx';
import { TextField } from '../../components/text-field.tsx';
import { useRegisterMutation } from './auth.api.ts';
import { useSignIn } from './use-sign-in.ts';

const LABELS = { displayName: 'Name', email: 'E-mail', password: 'Password' } as const;

export function RegisterForm() {
  const [displayName, setDisplayName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { submit, busy, error } = useSignIn(RegisterBody, useRegisterMutation()[0], LABELS);

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
      <NewPasswordField id="password" label={LABELS.password} value={password} onChange={setPassword} />
      <Button type="submit" disabled={busy}>
        Create account
      </Button>
    </Form>
  );
}
