import { cn } from '@app/ui';
import { NavLink } from 'react-router';
import { useMessages } from '../../i18n/messages';
import { ACCOUNT_PATH, TWO_FACTOR_PATH } from '../../lib/auth-paths';

export const ACCOUNT_TOKENS_PATH = `${ACCOUNT_PATH}/tokens`;
export const ACCOUNT_SESSIONS_PATH = `${ACCOUNT_PATH}/sessions`;

/** The signed-in user's own pages, as tabs: what the account may do, its API tokens, its sessions, its second factor. */
export function AccountNav({ className }: { className?: string }) {
  const m = useMessages();
  const items = [
    { to: ACCOUNT_PATH, label: m.userMenu.access },
    { to: ACCOUNT_TOKENS_PATH, label: m.userMenu.tokens },
    { to: ACCOUNT_SESSIONS_PATH, label: m.userMenu.sessions },
    { to: TWO_FACTOR_PATH, label: m.userMenu.twoFactor },
  ];
  return (
    <nav
      aria-label={m.userMenu.accountNav}
      className={cn('flex gap-1 overflow-x-auto border-b border-border', className)}
    >
      {items.map(({ to, label }) => (
        <NavLink
          key={to}
          to={to}
          end
          className={({ isActive }) =>
            cn(
              '-mb-px flex h-9 shrink-0 items-center border-b-2 px-2.5 text-sm font-medium transition-colors',
              'focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring',
              isActive
                ? 'border-primary text-foreground'
                : 'border-transparent text-muted-foreground hover:border-border hover:text-foreground',
            )
          }
        >
          {label}
        </NavLink>
      ))}
    </nav>
  );
}
