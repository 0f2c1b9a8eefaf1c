import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeIssues } from './use-checked-submit.ts';

const Body = z
  .object({
    email: z.string().min(1, 'is required'),
    password: z.string().min(10, 'must be at least 10 characters'),
    displayName: z.string().min(1, 'is required'),
  })
  .refine((body) => body.password !== body.email, 'The password must differ from the e-mail');

const labels = { email: 'E-mail', password: 'Password' };

function problems(values: unknown): string {
  const parsed = Body.safeParse(values);
  if (parsed.success) throw new Error('expected the values to be refused');
  return describeIssues(parsed.error, labels);
}

describe('the sign-in form problems', () => {
  it('name each field by its label, and list every problem', () => {
    expect(problems({ email: '', password: 'short', displayName: 'Ada' })).toBe(
      'E-mail is required; Password must be at least 10 characters',
    );
  });

  it('fall back to the field name without a label, and give form-wide problems alone', () => {
    expect(problems({ email: 'ada@example.org', password: 'long enough now', displayName: '' })).toBe(
      'displayName is required',
    );
    expect(problems({ email: 'long enough now', password: 'long enough now', displayName: 'Ada' })).toBe(
      'The password must differ from the e-mail',
    );
  });
});
