import { FilterChips } from '@app/ui';
import { useMessages } from '../../i18n/messages';
import { chipsOf, type FilterField } from './filter-fields';

/** A resource's words for its chips. */
export interface FilterChipsStrings {
  label: string;
  search: string;
  removeChip: (label: string, value: string) => string;
  clearAll: string;
}

export interface ResourceFilterChipsProps<F extends object> {
  /** The fields in the order their chips appear. */
  fields: readonly FilterField[];
  q: string;
  filters: F;
  /** `q` for the search, else the filter's key. */
  onRemove: (id: string) => void;
  onClearAll: () => void;
  strings: FilterChipsStrings;
}

/** The search and filters in force, as removable chips with "Clear all". */
export function ResourceFilterChips<F extends object>({
  fields,
  q,
  filters,
  onRemove,
  onClearAll,
  strings: t,
}: ResourceFilterChipsProps<F>) {
  const m = useMessages();
  const chips = [
    ...(q ? [{ id: 'q', label: t.search, value: q }] : []),
    ...chipsOf(fields, filters as Readonly<Record<string, unknown>>, m.app.locale),
  ];
  return (
    <FilterChips
      chips={chips}
      onRemove={onRemove}
      onClearAll={onClearAll}
      label={t.label}
      removeLabel={(chip) => t.removeChip(chip.label, chip.value)}
      clearAllLabel={t.clearAll}
    />
  );
}
