import { ShieldCheck } from 'lucide-react';
import { Navigate, useSearchParams } from 'react-router';
import { useAuthMessages } from '../../i18n/auth-messages';
import { ThemeSwitch } from '../theme/theme-switch';
import { homePathFor, safeNextPath } from '../../lib/auth-paths';
import { TextLink } from '../../components/text-link';
import { FORGOT_PASSWORD_PATH } from '../../lib/link-paths';
import { LoginForm } from './login-form';
import { SsoButtons, SsoError } from './sso-buttons';
import { useSession } from './use-session';

/** `/login`: outside the layout, a centred card; an already signed-in visitor goes straight on. */
export function LoginPage() {
  const m = useAuthMessages();
  const [params] = useSearchParams();
  const session = useSession();
  const next = safeNextPath(params.get('next'));

  if (session.session) return <Navigate to={next ?? homePathFor(session.session.can)} replace />;

  return (
    <div className="relative flex min-h-dvh flex-col items-center justify-center overflow-hidden px-4 py-12">
      <title>{m.app.documentTitle(m.auth.title)}</title>
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
            <ShieldCheck aria-hidden="true" className="size-5" />
          </span>
          <p className="mt-4 text-sm font-medium text-muted-foreground">{m.app.name}</p>
          <h1 className="mt-1 text-2xl font-semibold tracking-tight text-foreground">{m.auth.title}</h1>
          <p className="mt-1.5 text-sm text-muted-foreground">{m.auth.subtitle}</p>
        </div>
        <div className="rounded-xl border border-border bg-surface p-6 shadow-sm sm:p-7">
          <SsoError />
          <LoginForm next={next} />
          <SsoButtons />
        </div>
        <p className="mt-4 text-center text-sm">
          <TextLink to={FORGOT_PASSWORD_PATH}>{m.auth.forgotPassword}</TextLink>
        </p>
        <p className="mt-6 text-center text-xs text-muted-foreground">{m.auth.footnote}</p>
      </main>
    </div>
  );
}
