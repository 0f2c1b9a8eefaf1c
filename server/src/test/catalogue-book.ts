import { CatalogueBook } from '../../../contract/books.ts';

/** A catalogue book in one line: `Book <id>` by Someone, no identifier, dates, comment or files unless given. */
export const catalogueBook = (fields: Partial<CatalogueBook> & { id: string }): CatalogueBook =>
  CatalogueBook.parse({
    title: `Book ${fields.id}`,
    author: 'Someone',
    identifier: '',
    publish_date: null,
    publisher: '',
    created: null,
    updated: null,
    comment: '',
    path: '',
    formats: [],
    ...fields,
  });
