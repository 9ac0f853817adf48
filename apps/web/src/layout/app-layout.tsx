import { ShieldCheck } from 'lucide-react';
import { Link, type Location, Outlet, ScrollRestoration } from 'react-router';
import { JobsIndicator } from '../features/jobs/jobs-indicator';
import { ThemeSwitch } from '../features/theme/theme-switch';
import { useMessages } from '../i18n/messages';
import { MainNav } from './main-nav';
import { NavMenu } from './nav-menu';
import { UserMenu } from './user-menu';

export const MAIN_CONTENT_ID = 'main-content';

/**
 * Every page opened by typing or reloading has the history key "default"; keyed by it, one such
 * page would inherit another's scroll position. Those fall back to their address.
 */
function scrollKey(location: Location): string {
  return location.key === 'default' ? `${location.pathname}${location.search}` : location.key;
}

export function AppLayout() {
  const m = useMessages();

  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href={`#${MAIN_CONTENT_ID}`}
        className="fixed top-3 left-3 z-50 -translate-y-20 rounded-md border border-border bg-surface px-3 py-2 text-sm font-medium shadow-md transition-transform focus:translate-y-0"
      >
        {m.app.skipToContent}
      </a>
      <header className="sticky top-0 z-40 border-b border-border bg-background/85 backdrop-blur-md">
        <div className="mx-auto flex h-14 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
          <div className="flex min-w-0 items-center gap-1.5">
            <NavMenu className="-ml-2 sm:hidden" />
            <Link to="/" className="flex min-w-0 items-center gap-2.5 rounded-md text-sm font-semibold tracking-tight">
              <span className="flex size-7 shrink-0 items-center justify-center rounded-md bg-foreground text-background">
                <ShieldCheck aria-hidden="true" className="size-4" />
              </span>
              <span className="truncate max-[419px]:sr-only">{m.app.name}</span>
            </Link>
          </div>
          <div className="flex shrink-0 items-center gap-2 sm:gap-3">
            <JobsIndicator />
            <ThemeSwitch />
            <UserMenu />
          </div>
        </div>
        {/* Below `sm` the tabs would not fit (nor say that more lie past the edge): the menu holds them. */}
        <div className="mx-auto max-w-6xl px-2 max-sm:hidden sm:px-4">
          <MainNav />
        </div>
      </header>
      <main
        id={MAIN_CONTENT_ID}
        tabIndex={-1}
        className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 outline-none sm:px-6 sm:py-10"
      >
        <Outlet />
      </main>
      {/* A new page starts at the top; Back returns to where the previous one was scrolled. */}
      <ScrollRestoration getKey={scrollKey} />
    </div>
  );
}
