import { cn } from '@app/ui';
import { NavLink } from 'react-router';
import { useMessages } from '../i18n/messages';
import { type Capabilities, NAV_ITEMS, visibleNavItems } from './nav-items';

// Until the auth feature provides the session's `can`, no gated entry is visible.
const NO_CAPABILITIES: Capabilities = {};

export function MainNav({ can = NO_CAPABILITIES }: { can?: Capabilities }) {
  const m = useMessages();
  const items = visibleNavItems(NAV_ITEMS, can);
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
