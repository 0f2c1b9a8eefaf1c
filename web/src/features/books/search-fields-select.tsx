import Select, { createFilter, type MultiValue, type ThemeConfig } from 'react-select';
import { BOOK_SEARCH_FIELDS, type BookSearchField } from '../../../../contract/books.ts';
import { EmotionStyles } from '../../components/emotion-styles.tsx';
import { SEARCH_FIELD_LABELS } from './search-fields.ts';

interface FieldOption {
  value: BookSearchField;
  label: string;
}

/** In the settings' order: title, file name, comment, author…, the books' text last. */
const FIELD_OPTIONS: readonly FieldOption[] = BOOK_SEARCH_FIELDS.map((value) => ({
  value,
  label: SEARCH_FIELD_LABELS[value],
}));

/** Case- and accent-insensitive, trimming, matching anywhere in the label or value (docs/behaviour/books.md). */
const filterOption = createFilter<FieldOption>({
  ignoreCase: true,
  ignoreAccents: true,
  trim: true,
  matchFrom: 'any',
});

const noOptionsMessage = () => 'No options';
const loadingMessage = () => 'Loading...';

/** Bootstrap's blue, so the select matches the form controls around it. */
const bootstrapTheme: ThemeConfig = (theme) => ({
  ...theme,
  colors: { ...theme.colors, primary: '#0d6efd', primary75: '#3d8bfd', primary50: '#9ec5fe', primary25: '#e7f1ff' },
});

interface SearchFieldsSelectProps {
  inputId: string;
  /** Comma separated, as the slice keeps them. */
  fields: string;
  /** Whether the books' text can be searched: "Book text" is offered only then (decision 0039). */
  textSearchable: boolean;
  onChange: (fields: string[]) => void;
}

export function SearchFieldsSelect({ inputId, fields, textSearchable, onChange }: SearchFieldsSelectProps) {
  const offered = textSearchable ? FIELD_OPTIONS : FIELD_OPTIONS.filter((option) => option.value !== 'text');
  const chosen = fields
    .split(',')
    .map((field) => FIELD_OPTIONS.find((option) => option.value === field.trim()))
    .filter((option) => option !== undefined);

  return (
    <EmotionStyles>
      <Select<FieldOption, true>
        inputId={inputId}
        isMulti
        options={offered}
        value={chosen}
        onChange={(options: MultiValue<FieldOption>) => onChange(options.map((option) => option.value))}
        filterOption={filterOption}
        noOptionsMessage={noOptionsMessage}
        loadingMessage={loadingMessage}
        placeholder="Select..."
        theme={bootstrapTheme}
      />
    </EmotionStyles>
  );
}
