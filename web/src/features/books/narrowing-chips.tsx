import { splitFields } from './book-search-settings.ts';
import type { SearchNarrowing } from './books.slice.ts';
import { DEFAULT_SEARCH_FIELD, searchFieldLabel } from './search-fields.ts';

interface NarrowingChipsProps {
  /** The search the results shown answer. */
  narrowing: SearchNarrowing;
  onRemoveFormat(): void;
  onRemoveField(field: string): void;
}

/**
 * What narrows the results shown, as chips above them, each with a button that takes it away and
 * searches again: the format, and the fields the words were looked for in. A listing without words
 * (the newest books) looks in no field, so it shows the format alone.
 */
export function NarrowingChips({ narrowing, onRemoveFormat, onRemoveField }: NarrowingChipsProps) {
  const searched = narrowing.keys !== '';
  const fields = searched ? splitFields(narrowing.fields) : [];
  const chips = [
    ...(narrowing.format === '' ? [] : [{ label: `Format: ${narrowing.format}`, remove: onRemoveFormat }]),
    ...fields.map((field) => ({ label: `Field: ${searchFieldLabel(field)}`, remove: () => onRemoveField(field) })),
  ];
  return (
    <>
      {chips.length > 0 && (
        <ul className="list-inline mb-2 narrowing-chips" aria-label="Search narrowed by">
          {chips.map(({ label, remove }) => (
            <li key={label} className="list-inline-item badge rounded-pill text-bg-light border fw-normal">
              {label}
              <button
                type="button"
                className="btn-close btn-close-sm ms-1 align-middle"
                aria-label={`Remove ${label}`}
                onClick={remove}
              />
            </li>
          ))}
        </ul>
      )}
      {searched && fields.length === 0 && (
        <p className="small text-warning-emphasis mb-2" role="note">
          {`No fields chosen: the words were looked for in ${searchFieldLabel(DEFAULT_SEARCH_FIELD)}, the default. Choose fields in Advanced Search Settings.`}
        </p>
      )}
    </>
  );
}
