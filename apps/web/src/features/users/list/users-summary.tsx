import type { UsersStats } from '@app/contracts';
import { EmptyState, StatCard } from '@app/ui';
import { Trash2, UserCheck, Users, UserX } from 'lucide-react';
import { useMessages } from '../../../i18n/messages';
import type { UsersListFilters } from '../../../lib/users-query/users-list-state';

type View = 'total' | 'active' | 'inactive' | 'trashed';

/** The filters each card stands for; clicking a card applies them (other filters stay). */
const VIEW_FILTERS: Record<View, Pick<UsersListFilters, 'is_active' | 'trashed'>> = {
  total: { is_active: undefined, trashed: undefined },
  active: { is_active: 'active', trashed: undefined },
  inactive: { is_active: 'inactive', trashed: undefined },
  trashed: { is_active: undefined, trashed: 'only' },
};

function currentView(filters: UsersListFilters): View | null {
  if (filters.trashed === 'only') return filters.is_active ? null : 'trashed';
  if (filters.trashed === 'with') return null;
  return filters.is_active ?? 'total';
}

export interface UsersSummaryProps {
  stats: UsersStats | undefined;
  filters: UsersListFilters;
  canSeeTrash: boolean;
  onSelect: (filters: Pick<UsersListFilters, 'is_active' | 'trashed'>) => void;
}

const ICONS = { total: Users, active: UserCheck, inactive: UserX, trashed: Trash2 } as const;

export function UsersSummary({ stats, filters, canSeeTrash, onSelect }: UsersSummaryProps) {
  const m = useMessages();
  const views: View[] = canSeeTrash ? ['total', 'active', 'inactive', 'trashed'] : ['total', 'active', 'inactive'];
  const active = currentView(filters);
  const format = new Intl.NumberFormat(m.app.locale);

  return (
    <section
      aria-label={m.usersList.stats.label}
      className={canSeeTrash ? 'grid grid-cols-2 gap-3 lg:grid-cols-4' : 'grid grid-cols-3 gap-3'}
    >
      {views.map((view) => {
        const Icon = ICONS[view];
        const value = stats?.[view];
        return (
          <StatCard
            key={view}
            label={m.usersList.stats[view]}
            value={value === undefined ? null : format.format(value)}
            icon={<Icon aria-hidden="true" />}
            active={active === view}
            onClick={() => onSelect(VIEW_FILTERS[view])}
          />
        );
      })}
    </section>
  );
}

/** What the trash view says when nothing is in it. */
export function EmptyTrash() {
  const t = useMessages().usersList.empty;
  return <EmptyState icon={<Trash2 aria-hidden="true" />} title={t.trashTitle} description={t.trashBody} />;
}
