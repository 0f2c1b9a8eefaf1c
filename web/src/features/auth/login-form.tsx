import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { LoginBody } from '../../../../contract/auth.ts';
import { TextField } from '../../components/text-field.tsx';
import { useLogInMutation } from './auth.api.ts';
import { useSignIn } from './use-sign-in.ts';

const LABELS = { email: 'E-mail', password: 'Password' } as const;

export function LoginForm() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { submit, busy, error } = useSignIn(LoginBody, useLogInMutation()[0], LABELS);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void submit({ email, password });
  }

  return (
    <Form noValidate onSubmit={onSubmit} aria-label="Log in">
      {error !== null && <Alert variant="danger">{error}</Alert>}
      <TextField
        id="email"
        label={LABELS.email}
        type="email"
        autoComplete="username"
        value={email}
        onChange={setEmail}
      />
      <TextField
        id="password"
        label={LABELS.password}
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={setPassword}
      />
      <Button type="submit" disabled={busy}>
        Log in
      </Button>
    </Form>
  );
}
