import type { PublicAuthProviderList } from '@app/contracts';
import { Alert, buttonClassName } from '@app/ui';
import { useQuery } from '@tanstack/react-query';
import { LogIn } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { useSignInMessages } from '../../i18n/sign-in-messages';
import { rest } from '../../lib/rest';

/**
 * "Sign in with <provider>" for each configured provider (`GET /auth/providers/public`). Plain
 * links: the API's start route answers a redirect to the provider, so the browser must go there
 * itself. Without providers (or when they cannot be read) the page stays as it was.
 */
export function SsoButtons() {
  const m = useSignInMessages();
  const providers = useQuery({
    queryKey: ['auth', 'providers', 'public'],
    queryFn: () => rest<PublicAuthProviderList>('GET', '/auth/providers/public'),
    staleTime: 5 * 60_000,
  });
  const list = providers.data ?? [];
  if (list.length === 0) return null;

  return (
    <div className="mt-5 flex flex-col gap-3">
      <div className="flex items-center gap-3 text-xs text-muted-foreground" aria-hidden="true">
        <span className="h-px flex-1 bg-border" />
        {m.sso.or}
        <span className="h-px flex-1 bg-border" />
      </div>
      {list.map((provider) => (
        <a
          key={provider.id}
          href={`/api/auth/sso/${provider.id}/start`}
          className={buttonClassName({ variant: 'secondary', size: 'lg', className: 'w-full' })}
        >
          <LogIn aria-hidden="true" />
          {m.sso.signInWith(provider.name)}
        </a>
      ))}
    </div>
  );
}

/** `/login?error=<code>`: why single sign-on sent the person back, in words (unknown codes too). */
export function SsoError() {
  const m = useSignInMessages();
  const [params] = useSearchParams();
  const code = params.get('error');
  if (!code) return null;
  return (
    <Alert tone="danger" title={m.sso.failedTitle} className="mb-5">
      {Object.hasOwn(m.sso.errors, code) ? m.sso.errors[code] : m.sso.unknownError}
    </Alert>
  );
}
