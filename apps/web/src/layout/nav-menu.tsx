import { cn, Popover, PopoverContent, PopoverTrigger } from '@app/ui';
import { Menu, X } from 'lucide-react';
import { useState } from 'react';
import { NavLink } from 'react-router';
import { useCan } from '../features/auth/use-session';
import { useMessages } from '../i18n/messages';
import { NAV_ITEMS, visibleNavItems } from './nav-items';

/**
 * The navigation on a phone, where the tabs would not fit: a button that opens the same
 * destinations as a list. A disclosure (Radix popover), not an ARIA menu: these are links, read
 * and tabbed through as links; Escape or a click outside closes it and focus returns to the button.
 */
export function NavMenu({ className }: { className?: string }) {
  const m = useMessages();
  const items = visibleNavItems(NAV_ITEMS, useCan());
  const [open, setOpen] = useState(false);
  if (items.length === 0) return null;
  const Icon = open ? X : Menu;

  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger
        aria-label={m.nav.openMenu}
        className={cn(
          'flex size-9 shrink-0 items-center justify-center rounded-md text-foreground transition-colors',
          'hover:bg-surface-muted focus-visible:outline-2 focus-visible:outline-ring data-[state=open]:bg-surface-muted',
          className,
        )}
      >
        <Icon aria-hidden="true" className="size-5" />
      </PopoverTrigger>
      <PopoverContent
        aria-label={m.nav.label}
        className="w-64 p-1.5"
        // Radix skips links when it picks what to focus; here the links are the content.
        onOpenAutoFocus={(event) => {
          event.preventDefault();
          (event.currentTarget as HTMLElement | null)?.querySelector<HTMLElement>('a[href]')?.focus();
        }}
      >
        <nav aria-label={m.nav.label}>
          <ul className="flex flex-col gap-0.5">
            {items.map(({ to, label, icon: ItemIcon, end }) => (
              <li key={to}>
                <NavLink
                  to={to}
                  end={end}
                  onClick={() => setOpen(false)}
                  className={({ isActive }) =>
                    cn(
                      'flex h-10 items-center gap-3 rounded-md px-3 text-sm font-medium transition-colors',
                      'focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring',
                      isActive
                        ? 'bg-surface-muted text-foreground'
                        : 'text-muted-foreground hover:bg-surface-muted hover:text-foreground',
                    )
                  }
                >
                  <ItemIcon aria-hidden="true" className="size-4" />
                  {label(m)}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      </PopoverContent>
    </Popover>
  );
}
