/** The last failed call of a screen, in red above its content (docs/behaviour/bad-input-and-limits.md); nothing when there is none. */
export function OperationError({ message, id }: { message: string | null; id?: string }) {
  if (message === null) return null;
  return (
    <p className="text-danger operation-error" role="alert" id={id}>
      {message}
    </p>
  );
}
