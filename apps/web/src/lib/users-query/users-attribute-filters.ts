import { type AttributeField, attributePath } from '@app/contracts';
import type { Messages } from '../../i18n/messages';
import type { DateRangeValue, FilterField } from '../resource-list/filter-fields';

/** What a filter needs of a definition. */
type Definition = Pick<AttributeField, 'key' | 'label' | 'type' | 'values'>;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const text = (value: unknown): string | undefined =>
  typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;

/**
 * The filter of one attribute by its type, as the contract's conditions take it
 * (`filters[attributes][<key>]`): an enumeration by any of its values, text by a part of it, a
 * number or a date between bounds, yes/no. A user reference is filtered only by having none.
 */
function typedField(d: Definition, m: Messages): FilterField | null {
  const t = m.usersList.attributes;
  const base = {
    key: attributePath(d.key),
    chipLabel: d.label,
    path: ['attributes', d.key] as const,
    group: t.filters.group,
  };
  switch (d.type) {
    case 'enum':
      return {
        ...base,
        kind: 'multi',
        label: d.label,
        description: t.filters.valuesHint,
        options: (d.values ?? []).map((value) => ({ value, label: value })),
        unknownValue: String,
        joinChip: t.filters.chip.anyOf,
        decode: (value) => (Array.isArray(value) ? value.map(String) : undefined),
      };
    case 'boolean':
      return {
        ...base,
        kind: 'select',
        label: d.label,
        allLabel: t.filters.any,
        options: [
          { value: 'true', label: t.yes },
          { value: 'false', label: t.no },
        ],
        encode: (value) => [value === 'true'],
        decode: (value) => (Array.isArray(value) && value.length === 1 ? String(value[0]) : undefined),
      };
    case 'string':
    case 'email':
    case 'url':
      return {
        ...base,
        kind: 'text',
        label: t.filters.contains(d.label),
        chipText: t.filters.chip.contains,
        encode: (value) => ({ contains: value }),
        decode: (value) => (isObject(value) && 'contains' in value ? text(value.contains) : undefined),
      };
    case 'number':
    case 'date':
      return {
        ...base,
        kind: 'dateRange',
        input: d.type,
        label: d.label,
        fromLabel: t.filters.from(d.label),
        toLabel: t.filters.to(d.label),
        rangeText: t.filters.chip.range,
        decode: (value): DateRangeValue | undefined => {
          if (!isObject(value) || !('from' in value || 'to' in value)) return undefined;
          const [from, to] = [text(value.from), text(value.to)];
          return { ...(from ? { from } : {}), ...(to ? { to } : {}) };
        },
      };
    case 'user':
      return null;
  }
}

/** "No value": any attribute, a switch of its own. */
function emptyField(d: Definition, m: Messages): FilterField {
  const t = m.usersList.attributes.filters;
  return {
    kind: 'flag',
    key: `${attributePath(d.key)}:empty`,
    path: ['attributes', d.key],
    group: t.group,
    label: t.empty(d.label),
    chipLabel: d.label,
    chipValue: t.chip.empty,
    encode: () => ({ empty: true }),
    decode: (value) => (isObject(value) && (value.empty === true || value.empty === 'true') ? 'true' : undefined),
  };
}

/** The filters of the attributes the caller may see (the list's answer names them), in their order. */
export function attributeFilterFields(definitions: readonly Definition[] | undefined, m: Messages): FilterField[] {
  return (definitions ?? []).flatMap((d) => {
    const typed = typedField(d, m);
    return typed ? [typed, emptyField(d, m)] : [emptyField(d, m)];
  });
}
