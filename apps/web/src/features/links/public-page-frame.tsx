import { KeyRound } from 'lucide-react';
import type { ReactNode } from 'react';
import { useMessages } from '../../i18n/messages';
import { ThemeSwitch } from '../theme/theme-switch';

/**
 * The frame of a page reached without a session (forgot password, a mail's link): the sign-in
 * page's centred card, so a person coming from a mail knows where they are. Nothing in it loads
 * from another origin, so a token in the address is never sent anywhere (the API also answers
 * `Referrer-Policy: no-referrer`).
 */
export function PublicPageFrame({
  title,
  subtitle,
  children,
  footer,
}: {
  title: string;
  subtitle?: string;
  children: ReactNode;
  footer?: ReactNode;
}) {
  const m = useMessages();
  return (
    <div className="relative flex min-h-dvh flex-col items-center justify-center overflow-hidden px-4 py-12">
      <title>{m.app.documentTitle(title)}</title>
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-x-0 top-0 h-80 bg-[radial-gradient(ellipse_at_top,color-mix(in_oklch,var(--primary)_14%,transparent),transparent_70%)]"
      />
      <div className="absolute top-4 right-4">
        <ThemeSwitch />
      </div>
      <main className="relative w-full max-w-sm">
        <div className="mb-8 flex flex-col items-center text-center">
          <span className="flex size-11 items-center justify-center rounded-xl bg-foreground text-background shadow-sm">
            <KeyRound aria-hidden="true" className="size-5" />
          </span>
          <p className="mt-4 text-sm font-medium text-muted-foreground">{m.app.name}</p>
          <h1 className="mt-1 text-2xl font-semibold tracking-tight text-balance text-foreground">{title}</h1>
          {subtitle ? <p className="mt-1.5 text-sm text-pretty text-muted-foreground">{subtitle}</p> : null}
        </div>
        <div className="rounded-xl border border-border bg-surface p-6 shadow-sm sm:p-7">{children}</div>
        {footer ? <div className="mt-6 text-center text-sm">{footer}</div> : null}
      </main>
    </div>
  );
}
