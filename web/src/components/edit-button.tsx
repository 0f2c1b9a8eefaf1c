/** A pencil: the edit control beside a value that does something of its own when clicked, or that should not look like a link. */
export function EditButton({ id, label, onClick }: { id: string; label: string; onClick: () => void }) {
  return (
    <button type="button" id={id} className="btn btn-sm btn-outline-secondary py-0 px-1 flex-shrink-0 edit-button" aria-label={label} title={label} onClick={onClick}>
      <svg viewBox="0 0 16 16" width="1em" height="1em" aria-hidden="true" focusable="false">
        <path d="M11.5 1.5l3 3L5 14H2v-3z" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinejoin="round" />
        <path d="M9.5 3.5l3 3" stroke="currentColor" strokeWidth="1.5" />
      </svg>
    </button>
  );
}
