/**
 * The words users know the fields of tasks and bookmarks by (issue 12: labels are words, not keys).
 * The one place for them: the server's validation messages and the client's own checks both say
 * "Name is required", never "name: is required".
 */
export const FIELD_LABELS: Readonly<Record<string, string>> = {
  name: 'Name',
  first_schedule_time: 'First due',
  schedule_time: 'Due time',
  schedule_end_time: 'End time',
  schedule_type: 'Repeats',
  rrule: 'Repeat rule',
  repeat_from: 'Repeat from',
  text: 'Text',
  next_notice_time: 'Pending notice',
  emails: 'Recipients',
  notice_hours: 'Notice hours',
  comment: 'Comment',
  overdue_notice: 'Overdue notice',
  notice_in_workday: 'Notice in workday',
  list_id: 'List',
  assignee_id: 'Assigned to',
  rotation: 'Takes turns',
  title: 'Title',
  link: 'Link',
  tags: 'Tags',
  note: 'Note',
  key_words: 'Key words',
  hosts: 'Hosts',
  pageSize: 'Page size',
  start_date: 'Start date',
  end_date: 'End date',
  'create_time_range.start': 'Created from',
  'create_time_range.end': 'Created until',
  'update_time_range.start': 'Updated from',
  'update_time_range.end': 'Updated until',
  max_mb: 'Size limit',
  device_id: 'E-reader',
  state: 'State',
};

/** The field an issue's path names: its longest labelled key (`create_time_range.start`), else its last labelled one (`tags` of `tags.0`). */
function labelledKey(path: readonly PropertyKey[]): string | null {
  const keys = path.filter((part): part is string => typeof part === 'string');
  for (let from = 0; from < keys.length; from += 1) {
    const joined = keys.slice(from).join('.');
    if (joined in FIELD_LABELS) return joined;
  }
  return keys.findLast((key) => key in FIELD_LABELS) ?? null;
}

/** Zod's own messages, for a value of the wrong type, say nothing of the field. */
const ZOD_DEFAULT = /^(Invalid|Too (big|small))\b/;

/**
 * An issue in people's words. The messages of labelled fields are written to follow the label
 * ("is required", "must be at most 200 characters"), or as whole sentences, which start with a
 * capital or with the label itself ("Enter e-mail addresses like ada@example.org", the search form's
 * "key words are required"). A field without a label keeps its path in front (`querystring from: …`).
 */
export function describeIssue(path: readonly PropertyKey[], message: string, where = ''): string {
  const key = labelledKey(path);
  if (key === null) {
    const field = [where, path.map(String).join('.')].filter(Boolean).join(' ');
    return field ? `${field}: ${message}` : message;
  }
  const label = FIELD_LABELS[key]!;
  if (ZOD_DEFAULT.test(message)) return `${label}: ${message}`;
  if (/^[A-Z]/.test(message) || message.toLowerCase().startsWith(label.toLowerCase())) return message;
  return `${label} ${message}`;
}

/** The first issue of a refused value, in people's words: what a form shows beside the field. */
export function firstProblem(key: string, issues: readonly { path: PropertyKey[]; message: string }[]): string | null {
  const issue = issues[0];
  return issue === undefined ? null : describeIssue([key, ...issue.path], issue.message);
}
