import type { ApiToken } from '@app/contracts';
import { Badge, Button, Skeleton } from '@app/ui';
import { KeyRound } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTokensMessages } from '../../i18n/tokens-messages';
import { QueryStates } from '../errors/query-states';
import type { RecordQuery } from '../errors/record-page';

export type TokenListQuery = RecordQuery<{ items: ApiToken[] }>;

export interface TokenListProps {
  query: TokenListQuery;
  /** The viewer's own tokens ("All your permissions") or another user's ("All of the owner's"). */
  owner: 'self' | 'other';
  /** Shown when there are no tokens. */
  empty: ReactNode;
  /** Revoke a token; absent, no button is shown. */
  onRevoke?: ((token: ApiToken) => void) | undefined;
}

function Term({ children }: { children: ReactNode }) {
  return <dt className="text-xs text-muted-foreground">{children}</dt>;
}

function TokenRow({ token, owner, onRevoke }: { token: ApiToken } & Omit<TokenListProps, 'query' | 'empty'>) {
  const m = useTokensMessages();
  const t = m.tokens.list;
  const fullDate = (iso: string) => m.common.dateTime(iso);
  return (
    <li className="flex flex-col gap-3 px-5 py-4 sm:flex-row sm:items-start">
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-2">
          <KeyRound aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
          <h3 className="min-w-0 text-sm font-semibold break-words text-foreground">{token.name}</h3>
          {token.expired ? <Badge tone="danger">{t.expired}</Badge> : null}
        </div>
        <div className="mt-2 flex flex-wrap gap-1.5">
          <span className="sr-only">{t.scopes}:</span>
          {token.scopes === null ? (
            <Badge>{owner === 'self' ? t.allPermissions : t.allOwnerPermissions}</Badge>
          ) : (
            token.scopes.map((scope) => (
              <Badge key={scope} title={scope}>
                {m.permissions.names[scope]?.label ?? scope}
              </Badge>
            ))
          )}
        </div>
        <dl className="mt-3 grid grid-cols-1 gap-x-6 gap-y-2 text-sm min-[480px]:grid-cols-3">
          <div>
            <Term>{t.created}</Term>
            <dd className="text-foreground">
              <time dateTime={token.created_at}>{fullDate(token.created_at)}</time>
              {token.created_by && owner === 'other' ? (
                <span className="block text-xs text-muted-foreground">{t.createdBy(token.created_by.name)}</span>
              ) : null}
            </dd>
          </div>
          <div>
            <Term>{t.expires}</Term>
            <dd className={token.expired ? 'text-danger' : 'text-foreground'}>
              {token.expires_at ? (
                <time dateTime={token.expires_at} title={fullDate(token.expires_at)}>
                  {t.expiresOn(token.expires_at)}
                </time>
              ) : (
                t.never
              )}
            </dd>
          </div>
          <div>
            <Term>{t.lastUsed}</Term>
            <dd className="text-foreground">
              {token.last_used_at ? (
                <>
                  <time dateTime={token.last_used_at} title={fullDate(token.last_used_at)}>
                    {t.usedAt(token.last_used_at)}
                  </time>
                  {token.last_used_ip ? (
                    <span className="block font-mono text-xs break-all text-muted-foreground">
                      {t.fromIp(token.last_used_ip)}
                    </span>
                  ) : null}
                </>
              ) : (
                <span className="text-muted-foreground">{t.neverUsed}</span>
              )}
            </dd>
          </div>
        </dl>
      </div>
      {onRevoke ? (
        <Button
          variant="secondary"
          size="sm"
          className="self-start"
          aria-label={t.revokeNamed(token.name)}
          onClick={() => onRevoke(token)}
        >
          {t.revoke}
        </Button>
      ) : null}
    </li>
  );
}

/** API tokens as a list: what each may do, when it ends, when and from where it was last used. */
export function TokenList({ query, owner, empty, onRevoke }: TokenListProps) {
  const m = useTokensMessages();
  const t = m.tokens.list;
  return (
    <QueryStates
      query={query}
      loading={{
        label: t.loading,
        row: (
          <div className="space-y-3 px-5 py-4">
            <Skeleton className="h-4 w-40" />
            <Skeleton className="h-5 w-56" />
            <Skeleton className="h-4 w-full max-w-md" />
          </div>
        ),
      }}
      failed={{ title: t.errorTitle, retry: t.retry }}
    >
      {(data) =>
        data.items.length === 0 ? (
          empty
        ) : (
          <ul aria-label={t.label} className="divide-y divide-border">
            {data.items.map((token) => (
              <TokenRow key={token.id} token={token} owner={owner} onRevoke={onRevoke} />
            ))}
          </ul>
        )
      }
    </QueryStates>
  );
}
