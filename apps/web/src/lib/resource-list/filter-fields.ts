import { formatDate } from '../../i18n/dates';

/**
 * A resource's filters as its page describes them to the kit: one entry per filter, by kind. The
 * filter form and the chips of the filters in force are both drawn from it, so a filter has its
 * words and options in one place.
 */
export interface FilterOption<V extends string | number = string> {
  value: V;
  label: string;
  /** The chip's text for this value when it differs from the option's ("Only" for "Only deleted users"). */
  chipValue?: string;
}

interface FieldBase<K extends string> {
  key: K;
  /** The control's label in the form. */
  label: string;
  /** The chip's name for the filter ("Status"). */
  chipLabel: string;
}

export type FilterField<K extends string = string> =
  /** Free text (a substring). */
  | (FieldBase<K> & { kind: 'text'; maxLength?: number })
  /** One of a few values; `allLabel` is the choice of none. */
  | (FieldBase<K> & { kind: 'select'; allLabel: string; options: readonly FilterOption[] })
  /** Any of many values (ids or names), ticked; options may arrive late (`undefined` until they do). */
  | (FieldBase<K> & {
      kind: 'multi';
      description?: string;
      emptyMessage?: string;
      options: readonly FilterOption<string | number>[] | undefined;
      /** A chip's text for a value no option names (yet). Method syntax: a field may narrow it to its own values. */
      unknownValue(value: string | number): string;
    })
  /** `YYYY-MM-DD` bounds; `rangeText` writes the chip's value from formatted days. */
  | (FieldBase<K> & {
      kind: 'dateRange';
      fromLabel: string;
      toLabel: string;
      rangeText: (from: string | undefined, to: string | undefined) => string;
    })
  /**
   * Set by a link rather than the form ("this user's events"): shown as a chip, kept when the
   * form is applied, never edited in it. `describe` writes the chip's value.
   */
  | (FieldBase<K> & { kind: 'fixed'; describe(value: unknown): string });

export type DateRangeValue = { from?: string; to?: string };

/** What the form edits: every field's value, empty when not in force (a fixed one: undefined). */
export type FilterDraft = Record<string, string | Array<string | number> | DateRangeValue | undefined>;

const emptyOf = (field: FilterField): FilterDraft[string] =>
  field.kind === 'multi' ? [] : field.kind === 'dateRange' ? {} : field.kind === 'fixed' ? undefined : '';

export function toDraft(fields: readonly FilterField[], filters: Readonly<Record<string, unknown>>): FilterDraft {
  return Object.fromEntries(
    fields.map((field) => [field.key, (filters[field.key] as FilterDraft[string]) ?? emptyOf(field)]),
  );
}

/** The draft's filters in force: trimmed text, ticked values, a range with a bound, fixed ones as they were. */
export function fromDraft(fields: readonly FilterField[], draft: FilterDraft): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const value = draft[field.key];
    if (field.kind === 'text' && typeof value === 'string' && value.trim()) out[field.key] = value.trim();
    if (field.kind === 'select' && typeof value === 'string' && value) out[field.key] = value;
    if (field.kind === 'multi' && Array.isArray(value) && value.length > 0) out[field.key] = value;
    if (field.kind === 'fixed' && value !== undefined) out[field.key] = value;
    if (field.kind === 'dateRange' && value && typeof value === 'object' && !Array.isArray(value)) {
      const { from, to } = value;
      if (from || to) out[field.key] = { ...(from ? { from } : {}), ...(to ? { to } : {}) };
    }
  }
  return out;
}

function formatDay(day: string, locale: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? day : formatDate(date, 'utcDay', locale);
}

/** One chip per filter in force, in the fields' order. */
export function chipsOf(
  fields: readonly FilterField[],
  filters: Readonly<Record<string, unknown>>,
  locale: string,
): Array<{ id: string; label: string; value: string }> {
  const chips: Array<{ id: string; label: string; value: string }> = [];
  for (const field of fields) {
    const value = filters[field.key];
    if (value === undefined) continue;
    const chip = (text: string) => chips.push({ id: field.key, label: field.chipLabel, value: text });
    switch (field.kind) {
      case 'text':
        chip(String(value));
        break;
      case 'select': {
        const option = field.options.find((o) => o.value === value);
        chip(option?.chipValue ?? option?.label ?? String(value));
        break;
      }
      case 'multi': {
        const values = value as Array<string | number>;
        if (values.length === 0) break;
        // Until the options arrive, an ellipsis rather than ids that flash and change.
        const names = field.options
          ? values.map((v) => field.options?.find((o) => o.value === v)?.label ?? field.unknownValue(v)).join(', ')
          : '…';
        chip(names);
        break;
      }
      case 'fixed':
        chip(field.describe(value));
        break;
      case 'dateRange': {
        const { from, to } = value as DateRangeValue;
        chip(field.rangeText(from ? formatDay(from, locale) : undefined, to ? formatDay(to, locale) : undefined));
        break;
      }
    }
  }
  return chips;
}
