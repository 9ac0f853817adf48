import { cn } from '@app/ui';
import { NavLink } from 'react-router';
import { useCan } from '../features/auth/use-session';
import { useMessages } from '../i18n/messages';
import { NAV_ITEMS, visibleNavItems } from './nav-items';

/** Tabs under the top bar, from `sm` up (below it, `NavMenu`); they scroll sideways rather than wrap if ever too many. */
export function MainNav() {
  const m = useMessages();
  const items = visibleNavItems(NAV_ITEMS, useCan());
  if (items.length === 0) return null;

  return (
    <nav aria-label={m.nav.label} className="-mb-px flex min-w-0 gap-1 overflow-x-auto">
      {items.map(({ to, label, icon: Icon, end }) => (
        <NavLink
          key={to}
          to={to}
          end={end}
          className={({ isActive }) =>
            cn(
              'flex h-10 shrink-0 items-center gap-2 border-b-2 px-2.5 text-sm font-medium transition-colors',
              'focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring',
              isActive
                ? 'border-foreground text-foreground'
                : 'border-transparent text-muted-foreground hover:border-border hover:text-foreground',
            )
          }
        >
          <Icon aria-hidden="true" className="size-4" />
          {label(m)}
        </NavLink>
      ))}
    </nav>
  );
}
