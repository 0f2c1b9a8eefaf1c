import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { useDispatch, useSelector } from 'react-redux';
import { BOOK_FORMATS } from '../../../../contract/books.ts';
import { ALL_FORMATS } from './book-search-settings.ts';
import {
  commentToggled,
  fieldsUpdated,
  formatUpdated,
  selectBookSearch,
  sizeUpdated,
} from './books.slice.ts';
import { IndexUploadSection, useIndexUpload } from './index-upload.tsx';
import { SearchFieldsSelect } from './search-fields-select.tsx';
import type { CatalogueLoadState } from './use-catalogue-load.ts';

interface AdvancedSearchModalProps {
  show: boolean;
  onHide: () => void;
  /** Only admins may upload an index (docs/behaviour/books.md). */
  admin: boolean;
  /** An index upload went through: the list shown is of the catalogue before it. */
  onCatalogueLoaded: () => void;
  /** The catalogue's load as it goes (the page follows it). */
  catalogueLoad: CatalogueLoadState;
}

/** Advanced Search Settings (docs/behaviour/books.md): the settings apply to the next search. */
export function AdvancedSearchModal({ show, onHide, admin, onCatalogueLoaded, catalogueLoad }: AdvancedSearchModalProps) {
  const upload = useIndexUpload(onCatalogueLoaded, catalogueLoad);
  return (
    <Modal show={show} onHide={onHide} aria-labelledby="advanced-search-title">
      <Modal.Header>
        <Modal.Title id="advanced-search-title">Advanced Search Settings</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <SearchSettings />
        {admin && <IndexUploadSection upload={upload} catalogueLoad={catalogueLoad} />}
      </Modal.Body>
      <Modal.Footer>
        {admin && upload.cancellable && (
          <Button variant="outline-secondary" onClick={upload.cancel}>
            Cancel Upload
          </Button>
        )}
        <Button variant="primary" onClick={onHide}>
          Close
        </Button>
      </Modal.Footer>
    </Modal>
  );
}

function SearchSettings() {
  const dispatch = useDispatch();
  const settings = useSelector(selectBookSearch);
  // What the user types; the slice keeps the last entry that parses, and the field shows it on leaving.
  const [entries, setEntries] = useState(() => String(settings.size));

  return (
    <Form onSubmit={(event) => event.preventDefault()}>
      <Form.Group className="mb-3">
        <Form.Label htmlFor="search-fields">fields</Form.Label>
        <SearchFieldsSelect
          inputId="search-fields"
          fields={settings.fields}
          textSearchable={settings.textSearchable}
          onChange={(fields) => dispatch(fieldsUpdated(fields))}
        />
      </Form.Group>
      <Form.Group controlId="search-entries" className="mb-3">
        <Form.Label>entries</Form.Label>
        <Form.Control
          type="text"
          inputMode="numeric"
          value={entries}
          onChange={(event) => {
            setEntries(event.target.value);
            dispatch(sizeUpdated(event.target.value));
          }}
          onBlur={() => setEntries(String(settings.size))}
        />
      </Form.Group>
      <Form.Group controlId="search-format" className="mb-3">
        <Form.Label>format</Form.Label>
        <Form.Select
          value={settings.format === '' ? ALL_FORMATS : settings.format}
          onChange={(event) => dispatch(formatUpdated(event.target.value))}
        >
          {[ALL_FORMATS, ...BOOK_FORMATS].map((format) => (
            <option key={format} value={format}>
              {format}
            </option>
          ))}
        </Form.Select>
      </Form.Group>
      <Form.Check
        type="checkbox"
        id="search-comment"
        label="include comment"
        checked={settings.comment}
        onChange={() => dispatch(commentToggled())}
      />
    </Form>
  );
}
