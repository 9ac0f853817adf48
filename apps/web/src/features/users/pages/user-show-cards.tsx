import type { UserItem } from '@app/contracts';
import { Card, CardDescription, CardHeader, CardTitle, cn, DescriptionList } from '@app/ui';
import { ChevronRight, Shield } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { useTRPC } from '../../../lib/trpc';
import { useUserPagesMessages } from '../../../i18n/user-pages-messages';
import { useCan } from '../../auth/use-session';
import { PermissionList } from '../../../components/permission-list';
import { UserStatusBadge } from './user-badges';

function DateTime({ iso }: { iso: string }) {
  const m = useUserPagesMessages();
  return (
    <time dateTime={iso} title={iso}>
      {m.common.dateTime(iso)}
    </time>
  );
}

export function UserDetailsCard({ user, className }: { user: UserItem; className?: string }) {
  const m = useUserPagesMessages();
  const p = m.userPage;
  return (
    <Card aria-labelledby="user-details-title" className={cn('overflow-hidden', className)}>
      <CardHeader className="pb-3">
        <CardTitle id="user-details-title">{p.detailsTitle}</CardTitle>
      </CardHeader>
      <DescriptionList
        className="border-t border-border"
        items={[
          {
            term: p.email,
            description: (
              <a href={`mailto:${user.email}`} className="hover:underline">
                {user.email}
              </a>
            ),
          },
          { term: p.status, description: <UserStatusBadge isActive={user.is_active} deletedAt={user.deleted_at} /> },
          { term: p.created, description: <DateTime iso={user.created_at} /> },
          { term: p.updated, description: <DateTime iso={user.updated_at} /> },
          ...(user.deleted_at ? [{ term: p.deletedAt, description: <DateTime iso={user.deleted_at} /> }] : []),
          { term: p.id, description: <span className="font-mono text-xs">{user.id}</span> },
        ]}
      />
    </Card>
  );
}

/** The user's roles; each links to its role page when the viewer may open roles. */
export function UserRolesCard({
  roles,
  className,
}: {
  roles: ReadonlyArray<{ id: number; name: string }>;
  className?: string;
}) {
  const m = useUserPagesMessages();
  const can = useCan();
  return (
    <Card aria-labelledby="user-roles-title" className={cn('overflow-hidden', className)}>
      <CardHeader className="pb-3">
        <div>
          <CardTitle id="user-roles-title">{m.userPage.rolesTitle}</CardTitle>
          <CardDescription>{m.userPage.rolesDescription}</CardDescription>
        </div>
      </CardHeader>
      {roles.length === 0 ? (
        <p className="border-t border-border px-5 py-4 text-sm text-muted-foreground">{m.userPage.noRoles}</p>
      ) : (
        <ul className="divide-y divide-border border-t border-border">
          {roles.map((role) => {
            const body = (
              <>
                <span className="flex size-7 shrink-0 items-center justify-center rounded-md bg-surface-muted text-muted-foreground ring-1 ring-border ring-inset">
                  <Shield aria-hidden="true" className="size-3.5" />
                </span>
                <span className="min-w-0 flex-1 truncate text-sm font-medium">{role.name}</span>
              </>
            );
            return (
              <li key={role.id}>
                {can['roles.view'] ? (
                  <Link
                    to={`/roles/${role.id}`}
                    className="flex items-center gap-3 px-5 py-3 transition-colors hover:bg-surface-muted/60 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring"
                  >
                    {body}
                    <ChevronRight aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
                  </Link>
                ) : (
                  <div className="flex items-center gap-3 px-5 py-3">{body}</div>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}

/** Each held permission's sources in words, from GET /users/{id}/access (empty until it answers). */
function useAccessSources(userId: number): ReadonlyMap<string, string> {
  const m = useUserPagesMessages();
  const trpc = useTRPC();
  const access = useQuery(trpc.users.access.queryOptions({ id: userId }));
  return useMemo(
    () =>
      new Map(
        (access.data?.item.permissions ?? []).map((p) => [
          p.name,
          m.userPage.accessSources(
            p.sources.flatMap((s) => (s.kind === 'role' ? [s.name] : [])),
            p.sources.some((s) => s.kind === 'direct'),
          ),
        ]),
      ),
    [access.data, m],
  );
}

export function UserPermissionsCard({
  userId,
  names,
  className,
}: {
  userId: number;
  names: readonly string[];
  className?: string;
}) {
  const m = useUserPagesMessages();
  const sources = useAccessSources(userId);
  return (
    <Card aria-labelledby="user-permissions-title" className={cn('overflow-hidden', className)}>
      <CardHeader className="pb-3">
        <div>
          <CardTitle id="user-permissions-title">{m.userPage.permissionsTitle}</CardTitle>
          {names.length > 0 ? (
            <CardDescription>{m.userPage.permissionsDescription(names.length)}</CardDescription>
          ) : null}
        </div>
      </CardHeader>
      {names.length === 0 ? (
        <p className="border-t border-border px-5 py-4 text-sm text-muted-foreground">{m.userPage.noPermissions}</p>
      ) : (
        <PermissionList granted={names} sources={sources} className="border-t border-border" />
      )}
    </Card>
  );
}
