import { PERMISSIONS } from '@app/contracts';
import { Badge, Card, CardDescription, CardHeader, CardTitle, EmptyState, Skeleton } from '@app/ui';
import { useQuery } from '@tanstack/react-query';
import { ChevronLeft, KeyRound, Shield, Users } from 'lucide-react';
import { Link } from 'react-router';
import { useMessages } from '../../i18n/messages';
import { useTRPC } from '../../lib/trpc';
import { RecordErrorState } from '../errors/record-error-state';
import { useIdParam } from '../../lib/use-id-param';
import { PermissionList } from '../../components/permission-list';
import { useLeaveBack } from '../../lib/use-leave-back';
import { useCan } from '../auth/use-session';
import { roleMembersHref } from '../users/users-links';

/** `/roles/:id` (roles.view): the role, its guard, and what it grants next to what it does not. */
export function RoleShowPage() {
  const m = useMessages();
  const trpc = useTRPC();
  const id = useIdParam();
  const role = useQuery({
    ...trpc.roles.show.queryOptions({ id: id ?? 0, with: ['permissions'], withCount: ['permissions'] }),
    enabled: id !== null,
  });
  const item = role.data?.item;
  const canOpenUsers = useCan()['users.view'] === true;

  if (item) {
    const granted = (item.permissions ?? []).map((permission) => permission.name);
    const count = item.permissions_count ?? granted.length;
    return (
      <>
        <title>{m.app.documentTitle(item.name)}</title>
        <RoleBack />
        <div className="mt-4 flex items-center gap-4">
          <span className="flex size-12 shrink-0 items-center justify-center rounded-xl bg-surface-muted text-muted-foreground ring-1 ring-border ring-inset">
            <Shield aria-hidden="true" className="size-5" />
          </span>
          <div className="min-w-0">
            <h1 className="truncate text-2xl font-semibold tracking-tight text-foreground capitalize">{item.name}</h1>
            <div className="mt-1 flex flex-wrap items-center gap-2">
              <Badge>{m.role.guard(item.guard_name)}</Badge>
              <Badge tone={count > 0 ? 'success' : 'neutral'}>{m.role.permissionCount(count)}</Badge>
              {canOpenUsers ? (
                <Link
                  to={roleMembersHref(item.id)}
                  className="inline-flex items-center gap-1 rounded-sm text-sm font-medium text-muted-foreground underline underline-offset-4 hover:text-foreground"
                >
                  <Users aria-hidden="true" className="size-4" />
                  {m.roles.membersLink}
                </Link>
              ) : null}
            </div>
          </div>
        </div>
        <Card aria-labelledby="role-permissions-title" className="mt-8 max-w-3xl overflow-hidden">
          <CardHeader className="pb-4">
            <div>
              <CardTitle id="role-permissions-title">{m.role.permissionsTitle}</CardTitle>
              <CardDescription>{m.role.permissionsOf(count, PERMISSIONS.length)}</CardDescription>
            </div>
          </CardHeader>
          {count === 0 ? (
            <EmptyState
              className="border-t border-border"
              icon={<KeyRound aria-hidden="true" />}
              title={m.role.empty}
            />
          ) : (
            <PermissionList granted={granted} showMissing className="border-t border-border" />
          )}
        </Card>
      </>
    );
  }

  return (
    <>
      <RoleBack />
      {role.isError || id === null ? (
        <RecordErrorState
          error={role.error}
          notFound={id === null}
          notFoundTitle={m.role.notFoundTitle}
          notFoundDescription={m.role.notFoundDescription}
          errorTitle={m.role.errorTitle}
          onRetry={() => void role.refetch()}
          retrying={role.isFetching}
        />
      ) : (
        <div role="status" aria-label={m.role.loading} className="mt-4">
          <div className="flex items-center gap-4">
            <Skeleton className="size-12 rounded-xl" />
            <div className="space-y-2">
              <Skeleton className="h-6 w-36" />
              <Skeleton className="h-4 w-44" />
            </div>
          </div>
          <Card className="mt-8 max-w-3xl space-y-4 p-5">
            {[0, 1, 2, 3, 4].map((row) => (
              <div key={row} className="flex items-center gap-3">
                <Skeleton className="size-5 rounded-full" />
                <Skeleton className="h-4 w-2/5" />
              </div>
            ))}
          </Card>
        </div>
      )}
    </>
  );
}

/** "Back" returns to wherever the role was opened from (a user's page, the list), else to the list. */
function RoleBack() {
  const m = useMessages();
  const back = useLeaveBack('/roles');
  return (
    <button
      type="button"
      onClick={back}
      className="-ml-1 inline-flex items-center gap-1 rounded-md px-1 py-0.5 text-sm font-medium text-muted-foreground transition-colors hover:text-foreground"
    >
      <ChevronLeft aria-hidden="true" className="size-4 shrink-0" />
      {m.common.back}
    </button>
  );
}
