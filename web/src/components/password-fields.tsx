import { PASSWORD_MIN_LENGTH } from '../../../contract/auth.ts';
import { TextField } from './text-field.tsx';

interface PasswordFieldProps {
  value: string;
  onChange: (value: string) => void;
  label?: string;
}

/** The password the account has now, asked again before it is changed. */
export function CurrentPasswordField({ value, onChange, label = 'Current password' }: PasswordFieldProps) {
  return <TextField id="current-password" label={label} type="password" autoComplete="current-password" value={value} onChange={onChange} />;
}

/** A password being chosen, which the browser may offer to make up and save; the hint gives the contract's least length. */
export function NewPasswordField({
  value,
  onChange,
  label = 'New password',
  id = 'new-password',
  hint = `At least ${PASSWORD_MIN_LENGTH} characters.`,
}: PasswordFieldProps & { id?: string; hint?: string }) {
  return <TextField id={id} label={label} type="password" autoComplete="new-password" value={value} onChange={onChange} hint={hint} />;
}
