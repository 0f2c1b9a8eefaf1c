/** A size for a progress text: "12.5 MB". */
export function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Percent of a progress bar, whole, never past 100; none without a whole. */
export const percent = (part: number, whole: number | null) => (whole ? Math.min(100, Math.round((part / whole) * 100)) : 0);
