import { z } from 'zod';
import { BOOKMARK_SEARCH_FIELDS, BOOKMARK_STATES, type BookmarkGroup, BookmarkQuerySpec } from '../../../../contract/bookmarks.ts';
import { describeIssue } from '../../../../contract/field-labels.ts';

/** What the search page and its dialog hold, before it becomes a query spec. */
export const QueryForm = z.object({
  keyWords: z.string(),
  fields: z.array(z.enum(BOOKMARK_SEARCH_FIELDS)).optional(),
  hosts: z.array(z.string()).optional(),
  tags: z.array(z.string()).optional(),
  /** Read later: only the matches in this state. */
  state: z.enum(BOOKMARK_STATES).optional(),
  /** datetime-local values: the reader's own time, no zone. */
  createStart: z.string(),
  createEnd: z.string(),
  updateStart: z.string(),
  updateEnd: z.string(),
});
export type QueryForm = z.infer<typeof QueryForm>;

export const EMPTY_QUERY: QueryForm = { keyWords: '', createStart: '', createEnd: '', updateStart: '', updateEnd: '' };

/** Date-time editor (docs/behaviour/bookmarks.md): the local value as an ISO timestamp; incomplete input is none. */
export function localToIso(value: string): string | undefined {
  if (value === '') return undefined;
  const time = new Date(value);
  return Number.isNaN(time.getTime()) ? undefined : time.toISOString();
}

/** A range applies only once its start is set, and an end only with a start (docs/behaviour/bookmarks.md). */
function range(start: string, end: string) {
  const from = localToIso(start);
  if (from === undefined) return undefined;
  const until = localToIso(end);
  return { start: from, ...(until === undefined ? {} : { end: until }) };
}

/**
 * The query spec, or why it cannot be sent: the form's own message when there are no key words, else
 * the contract's (a range whose end comes before its start, say), in the server's words.
 */
export function querySpec(form: QueryForm): BookmarkQuerySpec | string {
  const keyWords = form.keyWords.trim().split(/\s+/).filter(Boolean);
  if (keyWords.length === 0) return 'key words are required';
  const created = range(form.createStart, form.createEnd);
  const updated = range(form.updateStart, form.updateEnd);
  const spec = {
    key_words: keyWords,
    ...(form.fields ? { fields: form.fields } : {}),
    ...(form.hosts ? { hosts: form.hosts } : {}),
    ...(form.tags ? { tags: form.tags } : {}),
    ...(form.state ? { state: form.state } : {}),
    ...(created ? { create_time_range: created } : {}),
    ...(updated ? { update_time_range: updated } : {}),
  };
  const checked = BookmarkQuerySpec.safeParse(spec);
  const issue = checked.error?.issues[0];
  return issue === undefined ? spec : describeIssue(issue.path, issue.message);
}

/** How much of a host or tag a group's label and a filter chip show; the whole is in the tooltip. */
export const FILTER_LABEL_LENGTH = 15;

/** The key's first 15 characters and the count in brackets (docs/behaviour/bookmarks.md). */
export function groupLabel(group: BookmarkGroup): string {
  return `${group.key.slice(0, FILTER_LABEL_LENGTH)} (${group.doc_count})`;
}

/** The group's whole key and count, for the tooltip of a label that `groupLabel` cut. */
export function groupTitle(group: BookmarkGroup): string {
  return `${group.key} (${group.doc_count})`;
}
