import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Select, { createFilter, type MultiValue } from 'react-select';
import type { BookmarkGroup, BookmarkSearchField, BookmarkState } from '../../../../contract/bookmarks.ts';
import { EmotionStyles } from '../../components/emotion-styles.tsx';
import { groupLabel, groupTitle, type QueryForm } from './bookmark-query.ts';

/** `title` is the whole text of a label cut short, shown as its tooltip. */
type Option<T extends string> = { value: T; label: string; title?: string };

/** The fields a search looks in, with the names users know them by (docs/behaviour/bookmarks.md). */
const FIELD_OPTIONS: ReadonlyArray<Option<BookmarkSearchField>> = [
  { value: 'title', label: 'Page Title' },
  { value: 'link', label: 'Page Link' },
  { value: 'note', label: 'Note' },
  { value: 'tags', label: 'Page Tag' },
  { value: 'text', label: 'Page Text', title: "Page Text: the words of the bookmark's kept copy of its page" },
];

/** Read later: any state, or one, named as the list's tabs name them. */
const STATE_CHOICES: ReadonlyArray<{ value: BookmarkState | undefined; label: string }> = [
  { value: undefined, label: 'Any' },
  { value: 'unread', label: 'Unread' },
  { value: 'read', label: 'Read' },
  { value: 'archived', label: 'Archived' },
];

const filterOption = createFilter<Option<string>>({ ignoreCase: true, ignoreAccents: true, trim: true, matchFrom: 'any' });

interface MultiProps<T extends string> {
  inputId: string;
  options: ReadonlyArray<Option<T>>;
  value: T[] | undefined;
  /** undefined when cleared (docs/behaviour/bookmarks.md). */
  onChange: (value: T[] | undefined) => void;
}

function Multi<T extends string>({ inputId, options, value, onChange }: MultiProps<T>) {
  const chosen = (value ?? []).map((item) => options.find((option) => option.value === item) ?? { value: item, label: item });
  return (
    <Select<Option<T>, true>
      inputId={inputId}
      isMulti
      options={options}
      value={chosen}
      onChange={(picked: MultiValue<Option<T>>) => onChange(picked.length === 0 ? undefined : picked.map((option) => option.value))}
      filterOption={filterOption}
      formatOptionLabel={(option) => <span title={option.title ?? option.label}>{option.label}</span>}
      noOptionsMessage={() => 'No options'}
      loadingMessage={() => 'Loading...'}
      placeholder="Select..."
    />
  );
}

const groupOptions = (groups: BookmarkGroup[]) => groups.map((group) => ({ value: group.key, label: groupLabel(group), title: groupTitle(group) }));

interface QueryConfigModalProps {
  show: boolean;
  onHide: () => void;
  form: QueryForm;
  onChange: (form: QueryForm) => void;
  hostGroups: BookmarkGroup[];
  tagGroups: BookmarkGroup[];
}

/** 'Advanced Search Configuration' (docs/behaviour/bookmarks.md): each choice applies at once to a search made. */
export function QueryConfigModal({ show, onHide, form, onChange, hostGroups, tagGroups }: QueryConfigModalProps) {
  const set = <K extends keyof QueryForm>(name: K, value: QueryForm[K]) => onChange({ ...form, [name]: value });
  const dateInput = (id: string, label: string, name: 'createStart' | 'createEnd' | 'updateStart' | 'updateEnd', disabled = false) => (
    <Form.Group className="col" controlId={id}>
      <Form.Label className="small">{label}</Form.Label>
      <Form.Control type="datetime-local" value={form[name]} disabled={disabled} onChange={(event) => set(name, event.target.value)} />
    </Form.Group>
  );
  return (
    <Modal show={show} onHide={onHide} aria-labelledby="query-config-title">
      <Modal.Header>
        <Modal.Title id="query-config-title">Advanced Search Configuration</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <EmotionStyles>
          <Form onSubmit={(event) => event.preventDefault()}>
            <Form.Group className="mb-3">
              <Form.Label htmlFor="query-fields">fields to search</Form.Label>
              <Multi inputId="query-fields" options={FIELD_OPTIONS} value={form.fields} onChange={(fields) => set('fields', fields)} />
            </Form.Group>
            <div className="row mb-3">
              {dateInput('query-create-start', 'create_date start', 'createStart')}
              {dateInput('query-create-end', 'create_date end', 'createEnd', form.createStart === '')}
            </div>
            <div className="row mb-3">
              {dateInput('query-update-start', 'update_date start', 'updateStart')}
              {dateInput('query-update-end', 'update_date end', 'updateEnd', form.updateStart === '')}
            </div>
            <fieldset className="mb-3" id="query-state">
              <legend className="form-label fs-6 mb-1">Read later</legend>
              {STATE_CHOICES.map(({ value, label }) => (
                <Form.Check
                  key={label}
                  inline
                  type="radio"
                  name="query-state"
                  id={`query-state-${value ?? 'any'}`}
                  label={label}
                  checked={form.state === value}
                  onChange={() => set('state', value)}
                />
              ))}
            </fieldset>
            <Form.Group className="mb-3">
              <Form.Label htmlFor="query-hosts">host_groups</Form.Label>
              <Multi inputId="query-hosts" options={groupOptions(hostGroups)} value={form.hosts} onChange={(hosts) => set('hosts', hosts)} />
            </Form.Group>
            <Form.Group className="mb-3">
              <Form.Label htmlFor="query-tags">tag_groups</Form.Label>
              <Multi inputId="query-tags" options={groupOptions(tagGroups)} value={form.tags} onChange={(tags) => set('tags', tags)} />
            </Form.Group>
          </Form>
        </EmotionStyles>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="primary" onClick={onHide}>
          Close
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
