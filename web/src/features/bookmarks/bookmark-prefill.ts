/** The create form's fields as text, as the user edits them. */
export type BookmarkFields = { title: string; link: string; tags: string; note: string };

/**
 * The create form filled from its address, as the bookmarklet opens it:
 * `/bookmark/create?url=…&title=…&note=…` (and `tags=…`), every parameter optional.
 */
export function prefilledFields(params: URLSearchParams): BookmarkFields {
  return {
    title: params.get('title')?.trim() ?? '',
    link: params.get('url')?.trim() ?? '',
    tags: params.get('tags') ?? '',
    note: params.get('note')?.trim() ?? '',
  };
}
