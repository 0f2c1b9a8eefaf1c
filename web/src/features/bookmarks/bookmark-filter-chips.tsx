import { FILTER_LABEL_LENGTH, type QueryForm } from './bookmark-query.ts';

/** The names the dialog gives the fields, for a chip that says which one is searched. */
const FIELD_NAMES = { title: 'Page Title', link: 'Page Link', note: 'Note', tags: 'Page Tag', text: 'Page Text' } as const;

/** `shown` is `text` with a host or tag cut to 15 characters, as the dialog's groups are. */
type Chip = { key: string; text: string; shown: string; without: QueryForm };

const cut = (value: string) => (value.length > FILTER_LABEL_LENGTH ? `${value.slice(0, FILTER_LABEL_LENGTH)}…` : value);

/** Each filter the form holds, and the form without it. */
function chips(form: QueryForm): Chip[] {
  const list: Chip[] = [];
  const each = <K extends 'fields' | 'hosts' | 'tags'>(name: K, prefix: string, label: (value: NonNullable<QueryForm[K]>[number]) => string) => {
    const values = (form[name] ?? []) as Array<NonNullable<QueryForm[K]>[number]>;
    for (const value of values) {
      const rest = values.filter((other) => other !== value);
      const without = { ...form, [name]: rest.length === 0 ? undefined : rest };
      list.push({ key: `${name}:${value}`, text: `${prefix} ${label(value)}`, shown: `${prefix} ${cut(label(value))}`, without });
    }
  };
  each('fields', 'in', (field) => FIELD_NAMES[field]);
  each('hosts', 'host', (host) => host);
  each('tags', 'tag', (tag) => tag);
  if (form.state) {
    const text = `only ${form.state}`;
    list.push({ key: 'state', text, shown: text, without: { ...form, state: undefined } });
  }
  const range = (what: string, start: 'createStart' | 'updateStart', end: 'createEnd' | 'updateEnd') => {
    if (form[start] === '') return;
    const text = `${what} ${form[start].replace('T', ' ')}${form[end] === '' ? ' or later' : ` to ${form[end].replace('T', ' ')}`}`;
    list.push({ key: start, text, shown: text, without: { ...form, [start]: '', [end]: '' } });
  };
  range('created', 'createStart', 'createEnd');
  range('updated', 'updateStart', 'updateEnd');
  return list;
}

interface FilterChipsProps {
  form: QueryForm;
  /** The form without one of its filters: the search widens at once. */
  onRemove: (form: QueryForm) => void;
}

/** The search's active filters (issue 37), each a chip whose × removes it. */
export function FilterChips({ form, onRemove }: FilterChipsProps) {
  const list = chips(form);
  if (list.length === 0) return null;
  return (
    <ul className="list-unstyled d-flex flex-wrap gap-1 mb-3" aria-label="Active filters" id="bookmark-filter-chips">
      {list.map((chip) => (
        <li key={chip.key} className="badge rounded-pill text-bg-primary d-inline-flex align-items-center gap-1 filter-chip" title={chip.text}>
          <span>{chip.shown}</span>
          <button
            type="button"
            className="btn-close btn-close-white filter-chip-remove"
            aria-label={`Remove filter ${chip.text}`}
            onClick={() => onRemove(chip.without)}
          />
        </li>
      ))}
    </ul>
  );
}
