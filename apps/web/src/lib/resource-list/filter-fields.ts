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
  /** The field's own name (its chip's id); the filter's key unless `path` says where the value lives. */
  key: K;
  /** The control's label in the form. */
  label: string;
  /** The chip's name for the filter ("Status"). */
  chipLabel: string;
  /**
   * Where the value lives inside the filters, for a condition nested in one filter
   * (`filters.attributes.department`). Two fields may share a path when each reads its own shape.
   */
  path?: readonly [string, string];
  /** A heading the form shows above the first field of a group (the custom attributes'). */
  group?: string;
  /** The filter's value from the form's, when they differ (`{contains: text}` from the text). */
  encode?(value: FilterDraft[string]): unknown;
  /** The form's value from the filter's; undefined when the value is not in this field's shape. */
  decode?(value: unknown): FilterDraft[string] | undefined;
}

export type FilterField<K extends string = string> =
  /** Free text (a substring). */
  | (FieldBase<K> & { kind: 'text'; maxLength?: number; chipText?: (text: string) => string })
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
      /** The chip's text from the ticked values' names (", " between them unless said). */
      joinChip?: (names: string[]) => string;
    })
  /** `YYYY-MM-DD` bounds (numbers with `input: 'number'`); `rangeText` writes the chip's value from formatted bounds. */
  | (FieldBase<K> & {
      kind: 'dateRange';
      input?: 'date' | 'number';
      fromLabel: string;
      toLabel: string;
      rangeText: (from: string | undefined, to: string | undefined) => string;
    })
  /**
   * Set by a link rather than the form ("this user's events"): shown as a chip, kept when the
   * form is applied, never edited in it. `describe` writes the chip's value.
   */
  | (FieldBase<K> & { kind: 'fixed'; describe(value: unknown): string })
  /** On or off (a switch); in force when on, its chip saying `chipValue`. */
  | (FieldBase<K> & { kind: 'flag'; chipValue: string });

export type DateRangeValue = { from?: string; to?: string };

/** What the form edits: every field's value, empty when not in force (a fixed one: undefined). */
export type FilterDraft = Record<string, string | Array<string | number> | DateRangeValue | undefined>;

const emptyOf = (field: FilterField): FilterDraft[string] =>
  field.kind === 'multi' ? [] : field.kind === 'dateRange' ? {} : field.kind === 'fixed' ? undefined : '';

/** A field's value in the filters, in the form's terms; undefined when not in force (or not its shape). */
function fieldValue(field: FilterField, filters: Readonly<Record<string, unknown>>): FilterDraft[string] | undefined {
  const [outer, inner] = field.path ?? [field.key];
  const container = filters[outer];
  const raw =
    inner === undefined
      ? container
      : container && typeof container === 'object'
        ? (container as Record<string, unknown>)[inner]
        : undefined;
  if (raw === undefined) return undefined;
  return field.decode ? field.decode(raw) : (raw as FilterDraft[string]);
}

export function toDraft(fields: readonly FilterField[], filters: Readonly<Record<string, unknown>>): FilterDraft {
  return Object.fromEntries(fields.map((field) => [field.key, fieldValue(field, filters) ?? emptyOf(field)]));
}

/** The form's value of one field as the filter takes it; undefined when the field is not in force. */
function draftValue(field: FilterField, value: FilterDraft[string]): unknown {
  if (field.kind === 'text' && typeof value === 'string' && value.trim()) return value.trim();
  if ((field.kind === 'select' || field.kind === 'flag') && typeof value === 'string' && value) return value;
  if (field.kind === 'multi' && Array.isArray(value) && value.length > 0) return value;
  if (field.kind === 'fixed' && value !== undefined) return value;
  if (field.kind === 'dateRange' && value && typeof value === 'object' && !Array.isArray(value)) {
    const { from, to } = value;
    if (from || to) return { ...(from ? { from } : {}), ...(to ? { to } : {}) };
  }
  return undefined;
}

/** The draft's filters in force: trimmed text, ticked values, a range with a bound, fixed ones as they were. */
export function fromDraft(fields: readonly FilterField[], draft: FilterDraft): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const value = draftValue(field, draft[field.key]);
    if (value === undefined) continue;
    const encoded = field.encode ? field.encode(value as FilterDraft[string]) : value;
    const [outer, inner] = field.path ?? [field.key];
    if (inner === undefined) out[outer] = encoded;
    else out[outer] = { ...(out[outer] as Record<string, unknown> | undefined), [inner]: encoded };
  }
  return out;
}

/** The filters without one field's value (a chip's removal): a nested condition alone, its filter when it was the last. */
export function withoutField(
  fields: readonly FilterField[],
  filters: Readonly<Record<string, unknown>>,
  key: string,
): Record<string, unknown> {
  const field = fields.find((f) => f.key === key);
  const [outer, inner] = field?.path ?? [key];
  const { [outer]: container, ...rest } = filters;
  if (inner === undefined || !container || typeof container !== 'object') return rest;
  const { [inner]: _removed, ...kept } = container as Record<string, unknown>;
  return Object.keys(kept).length > 0 ? { ...rest, [outer]: kept } : rest;
}

/** How many fields are in force (a nested condition counts as one of its own). */
export function countInForce(fields: readonly FilterField[], filters: Readonly<Record<string, unknown>>): number {
  const nested = new Set(fields.flatMap((f) => (f.path ? [f.path[0]] : [])));
  const plain = Object.keys(filters).filter((key) => !nested.has(key)).length;
  return plain + fields.filter((f) => f.path && fieldValue(f, filters) !== undefined).length;
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
    const value = fieldValue(field, filters);
    if (value === undefined) continue;
    const chip = (text: string) => chips.push({ id: field.key, label: field.chipLabel, value: text });
    switch (field.kind) {
      case 'text':
        chip(field.chipText ? field.chipText(String(value)) : String(value));
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
        const labels = values.map((v) => field.options?.find((o) => o.value === v)?.label ?? field.unknownValue(v));
        chip(field.options ? (field.joinChip ? field.joinChip(labels) : labels.join(', ')) : '…');
        break;
      }
      case 'fixed':
        chip(field.describe(value));
        break;
      case 'dateRange': {
        const { from, to } = value as DateRangeValue;
        const bound = (b: string | undefined) =>
          b ? (field.input === 'number' ? b : formatDay(b, locale)) : undefined;
        chip(field.rangeText(bound(from), bound(to)));
        break;
      }
      case 'flag':
        if (value) chip(field.chipValue);
        break;
    }
  }
  return chips;
}
