import { useState } from 'react';
import type { z } from 'zod';
import { errorMessage } from '../api/api-error.ts';

/**
 * A form's submit: the values checked with the contract's own rules first, so that the user reads
 * the server's wording before a round trip, then the call. Busy while the call runs; the error is
 * the values' problems or the call's failure.
 */
export function useCheckedSubmit<S extends z.ZodType>(schema: S, describe: (error: z.ZodError) => string) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  /** True once the call has succeeded. */
  async function submit(values: z.input<S>, call: (body: z.output<S>) => Promise<unknown>): Promise<boolean> {
    const parsed = schema.safeParse(values);
    if (!parsed.success) {
      setError(describe(parsed.error));
      return false;
    }
    setBusy(true);
    setError(null);
    try {
      await call(parsed.data);
      return true;
    } catch (failure) {
      setError(errorMessage(failure));
      return false;
    } finally {
      setBusy(false);
    }
  }

  return { submit, busy, error };
}

/** Each problem under the label the user sees, as in 'Password must be at least 10 characters'. */
export function describeIssues(error: z.ZodError, labels: Readonly<Record<string, string>>): string {
  return error.issues
    .map((issue) => {
      const field = issue.path[0];
      if (field === undefined) return issue.message;
      return `${labels[String(field)] ?? String(field)} ${issue.message}`;
    })
    .join('; ');
}
