import { useState } from 'react';
import Form from 'react-bootstrap/Form';
import { RepeatFrom } from '../../../../contract/tasks.ts';
import { choicesFor, type MonthlyBy, type RuleChoices, type RuleDraft, type RuleEnd, ruleOf, type RuleUnit } from './rule-builder.ts';
import { ordinal, ruleWords, WEEKDAYS } from './rule-words.ts';

interface RuleEditorProps {
  /** Prefix of the controls' ids. */
  id: string;
  draft: RuleDraft;
  onChange: (draft: RuleDraft) => void;
  /** The first due time (ISO) the choices start from; null before one is typed. */
  firstDue: string | null;
  zone: string;
}

const UNITS: { value: RuleUnit; label: string }[] = [
  { value: 'DAILY', label: 'days' },
  { value: 'WEEKLY', label: 'weeks' },
  { value: 'MONTHLY', label: 'months' },
  { value: 'YEARLY', label: 'years' },
];

/**
 * A repeat rule chosen in words — every N days, weeks on chosen days, months on a day, an nth
 * weekday or the last day, years; from the due date or from when it is done; until a date or N
 * times — with the RRULE it makes in a text box that takes any other rule, and the rule in words.
 */
export function RuleEditor({ id, draft, onChange, firstDue, zone }: RuleEditorProps) {
  const [choices, setChoices] = useState<RuleChoices>(() => choicesFor(firstDue, zone));
  const choose = (change: Partial<RuleChoices>) => {
    const next = { ...choices, ...change };
    setChoices(next);
    onChange({ ...draft, rule: ruleOf(next, zone) });
  };
  const whole = (text: string) => Math.max(1, Math.min(999, Math.trunc(Number(text)) || 1));
  const nth = choices.weekdayOfMonth;
  const nthName = WEEKDAYS.find((day) => day.code === nth.code)?.name ?? nth.code;

  return (
    <div className="task-rule-editor border rounded p-2" id={id}>
      <div className="d-flex flex-wrap align-items-center gap-2 mb-2">
        <Form.Label htmlFor={`${id}-interval`} className="mb-0">
          Every
        </Form.Label>
        <Form.Control id={`${id}-interval`} size="sm" type="number" min={1} max={999} className="w-auto" value={choices.interval} onChange={(event) => choose({ interval: whole(event.target.value) })} />
        <Form.Select id={`${id}-unit`} aria-label="Unit" size="sm" className="w-auto" value={choices.unit} onChange={(event) => choose({ unit: event.target.value as RuleUnit })}>
          {UNITS.map((unit) => (
            <option key={unit.value} value={unit.value}>
              {unit.label}
            </option>
          ))}
        </Form.Select>
      </div>
      {choices.unit === 'WEEKLY' && (
        <fieldset className="mb-2">
          <legend className="fs-6 mb-1">On</legend>
          {WEEKDAYS.map((day) => (
            <Form.Check
              inline
              key={day.code}
              id={`${id}-day-${day.code}`}
              label={day.name}
              checked={choices.weekdays.includes(day.code)}
              onChange={(event) =>
                choose({ weekdays: event.target.checked ? [...choices.weekdays, day.code] : choices.weekdays.filter((code) => code !== day.code) })
              }
            />
          ))}
        </fieldset>
      )}
      {choices.unit === 'MONTHLY' && (
        <Form.Select id={`${id}-monthly`} aria-label="Day of the month" size="sm" className="w-auto mb-2" value={choices.monthlyBy} onChange={(event) => choose({ monthlyBy: event.target.value as MonthlyBy })}>
          <option value="day">on the {ordinal(choices.day)}</option>
          <option value="weekday">
            on the {ordinal(nth.n)} {nthName}
          </option>
          <option value="last">on the last day</option>
        </Form.Select>
      )}
      <div className="d-flex flex-wrap align-items-center gap-2 mb-2">
        <Form.Label htmlFor={`${id}-from`} className="mb-0">
          Counted from
        </Form.Label>
        <Form.Select id={`${id}-from`} size="sm" className="w-auto" value={draft.repeatFrom} onChange={(event) => onChange({ ...draft, repeatFrom: RepeatFrom.parse(event.target.value) })}>
          <option value="due">the due date</option>
          <option value="done">when it is done</option>
        </Form.Select>
        <Form.Label htmlFor={`${id}-end`} className="mb-0">
          Ends
        </Form.Label>
        <Form.Select id={`${id}-end`} size="sm" className="w-auto" value={choices.end} onChange={(event) => choose({ end: event.target.value as RuleEnd })}>
          <option value="never">never</option>
          <option value="until">on a date</option>
          <option value="count">after a number of times</option>
        </Form.Select>
        {choices.end === 'until' && (
          <Form.Control id={`${id}-until`} aria-label="Until" size="sm" type="date" className="w-auto" value={choices.until} onChange={(event) => choose({ until: event.target.value })} />
        )}
        {choices.end === 'count' && (
          <Form.Control id={`${id}-count`} aria-label="Times" size="sm" type="number" min={1} max={999} className="w-auto" value={choices.count} onChange={(event) => choose({ count: whole(event.target.value) })} />
        )}
      </div>
      <Form.Label htmlFor={`${id}-rule`} className="mb-1">
        Rule (RRULE; any other rule may be typed here)
      </Form.Label>
      <Form.Control id={`${id}-rule`} size="sm" className="font-monospace mb-1" value={draft.rule} onChange={(event) => onChange({ ...draft, rule: event.target.value })} />
      <p className="mb-0 text-body-secondary" id={`${id}-words`} aria-live="polite">
        {draft.rule.trim() === '' ? 'Does not repeat' : ruleWords(draft.rule, draft.repeatFrom, zone)}
      </p>
    </div>
  );
}
