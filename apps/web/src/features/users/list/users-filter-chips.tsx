import type { NamedRef } from '@app/contracts';
import { type FilterChip, FilterChips } from '@app/ui';
import { type Messages, useMessages } from '../../../i18n/messages';
import type { UsersListFilters, UsersListState } from './users-list-state';

type ChipId = 'q' | keyof UsersListFilters;

function formatDay(day: string, locale: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime())
    ? day
    : new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(date);
}

function chipsOf(
  state: UsersListState,
  roles: readonly NamedRef[] | undefined,
  m: Messages,
): Array<FilterChip & { id: ChipId }> {
  const t = m.usersList.filters;
  const { filters } = state;
  const chips: Array<FilterChip & { id: ChipId }> = [];
  if (state.q) chips.push({ id: 'q', label: t.chip.search, value: state.q });
  if (filters.name) chips.push({ id: 'name', label: t.chip.name, value: filters.name });
  if (filters.email) chips.push({ id: 'email', label: t.chip.email, value: filters.email });
  if (filters.role_id?.length) {
    // Until the role names arrive, an ellipsis rather than ids that flash and change.
    const names = roles
      ? filters.role_id.map((id) => roles.find((role) => role.id === id)?.name ?? t.unknownRole(id)).join(', ')
      : '…';
    chips.push({ id: 'role_id', label: t.chip.roles, value: names });
  }
  if (filters.is_active) {
    chips.push({
      id: 'is_active',
      label: t.chip.status,
      value: filters.is_active === 'active' ? t.statusActive : t.statusInactive,
    });
  }
  const created = filters.created_between;
  if (created) {
    const from = created.from ? formatDay(created.from, m.app.locale) : undefined;
    const to = created.to ? formatDay(created.to, m.app.locale) : undefined;
    chips.push({ id: 'created_between', label: t.chip.created, value: t.createdRange(from, to) });
  }
  if (filters.trashed) {
    chips.push({
      id: 'trashed',
      label: t.chip.trash,
      value: filters.trashed === 'only' ? t.chip.trashOnly : t.chip.trashWith,
    });
  }
  return chips;
}

export interface UsersFilterChipsProps {
  state: UsersListState;
  /** Undefined until the first answer brings them. */
  roles: readonly NamedRef[] | undefined;
  onRemove: (id: ChipId) => void;
  onClearAll: () => void;
}

/** The search and filters in force, as removable chips with "Clear all". */
export function UsersFilterChips({ state, roles, onRemove, onClearAll }: UsersFilterChipsProps) {
  const m = useMessages();
  const t = m.usersList.filters;
  return (
    <FilterChips
      chips={chipsOf(state, roles, m)}
      onRemove={(id) => onRemove(id as ChipId)}
      onClearAll={onClearAll}
      label={t.chipsLabel}
      removeLabel={(chip) => t.removeChip(chip.label, chip.value)}
      clearAllLabel={t.clearAll}
    />
  );
}
