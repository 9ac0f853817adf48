import { type ActionState, PERMISSION_CATALOGUE, PERMISSIONS } from '@app/contracts';
import {
  Badge,
  Button,
  buttonClassName,
  Card,
  CardDescription,
  CardHeader,
  CardTitle,
  EmptyState,
  Skeleton,
} from '@app/ui';
import { useQuery } from '@tanstack/react-query';
import { ChevronLeft, KeyRound, Pencil, Shield, Trash2, Users } from 'lucide-react';
import { Link } from 'react-router';
import { useRolesMessages } from '../../i18n/roles-messages';
import { useRoleEditorMessages } from '../../i18n/role-editor-messages';
import { useTRPC } from '../../lib/trpc';
import { RecordErrorState } from '../errors/record-error-state';
import { useIdParam } from '../../lib/use-id-param';
import { PermissionMatrix } from '../../components/permission-matrix';
import { useLeaveBack } from '../../lib/use-leave-back';
import { useCan } from '../auth/use-session';
import { roleMembersHref } from '../../lib/resource-list/list-links';
import { useDeleteRoleDialog } from './use-delete-role';

/** The catalogue as the contracts name it: what a read-only matrix lays out (no decisions needed). */
const CATALOGUE_ROWS = PERMISSIONS.map((name) => ({ name, ...PERMISSION_CATALOGUE[name] }));

/**
 * `/roles/:id` (roles.view): the role, who holds it, and what it grants as the resource × action
 * matrix; Edit and Delete as the server judged them for the caller in `item.actions` (with the
 * reason when not, hidden when the caller may not change or delete roles at all).
 */
export function RoleShowPage() {
  const m = useRolesMessages();
  const r = useRoleEditorMessages();
  const trpc = useTRPC();
  const id = useIdParam();
  const role = useQuery({
    ...trpc.roles.show.queryOptions({ id: id ?? 0, with: ['permissions'], withCount: ['permissions', 'users'] }),
    enabled: id !== null,
  });
  const item = role.data?.item;
  const can = useCan();
  const canOpenUsers = can['users.view'] === true;
  const remove = useDeleteRoleDialog(
    item ? { id: item.id, name: item.name, users_count: item.users_count ?? 0 } : undefined,
    () => role.refetch(),
  );

  if (item) {
    const granted = (item.permissions ?? []).map((permission) => permission.name);
    const count = item.permissions_count ?? granted.length;
    return (
      <>
        <title>{m.app.documentTitle(item.name)}</title>
        <RoleBack />
        <div className="mt-4 flex max-w-5xl flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
          <div className="flex min-w-0 items-center gap-4">
            <span className="flex size-12 shrink-0 items-center justify-center rounded-xl bg-surface-muted text-muted-foreground ring-1 ring-border ring-inset">
              <Shield aria-hidden="true" className="size-5" />
            </span>
            <div className="min-w-0">
              <h1 className="truncate text-2xl font-semibold tracking-tight text-foreground">{item.name}</h1>
              <div className="mt-1 flex flex-wrap items-center gap-2">
                <Badge tone={count > 0 ? 'success' : 'neutral'}>{m.role.permissionCount(count)}</Badge>
                {item.require_two_factor ? <Badge tone="warning">{m.role.requiresTwoFactor}</Badge> : null}
                <RoleMembers id={item.id} count={item.users_count ?? 0} canOpenUsers={canOpenUsers} />
              </div>
            </div>
          </div>
          {item.actions ? (
            <div className="flex shrink-0 gap-2">
              {isOffered(item.actions.update) ? (
                item.actions.update.allowed ? (
                  <Link to={`/roles/${item.id}/edit`} className={buttonClassName({ variant: 'secondary' })}>
                    <Pencil aria-hidden="true" />
                    {r.show.edit}
                  </Link>
                ) : (
                  <Button variant="secondary" unavailableReason={refusal(item.actions.update)}>
                    <Pencil aria-hidden="true" />
                    {r.show.edit}
                  </Button>
                )
              ) : null}
              {isOffered(item.actions.delete) ? (
                <Button variant="danger" unavailableReason={refusal(item.actions.delete)} onClick={remove.ask}>
                  <Trash2 aria-hidden="true" />
                  {r.show.delete}
                </Button>
              ) : null}
            </div>
          ) : null}
        </div>
        <p className="mt-4 max-w-3xl text-sm text-pretty text-muted-foreground">
          {item.description ?? r.show.noDescription}
        </p>
        <Card aria-labelledby="role-permissions-title" className="mt-6 max-w-5xl">
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
            <PermissionMatrix
              readOnly
              label={m.role.permissionsTitle}
              rows={CATALOGUE_ROWS}
              value={granted}
              className="border-t border-border"
            />
          )}
        </Card>
        {remove.dialog}
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
  const m = useRolesMessages();
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

const refusal = (state: ActionState) => (state.allowed ? null : (state.message ?? state.code ?? null));

/**
 * Whether the page shows an action at all, from the server's answer alone: one refused as
 * FORBIDDEN is not the caller's to take (the permission for that kind of change is missing, which
 * the rule judges first), so it is not shown; any other refusal (outranked, the protected
 * administrator role) is shown unavailable with the server's sentence.
 */
const isOffered = (state: ActionState) => state.allowed || state.code !== 'FORBIDDEN';

/** "Held by 12 users", a link to them in the users list for one who may open it. */
function RoleMembers({ id, count, canOpenUsers }: { id: number; count: number; canOpenUsers: boolean }) {
  const r = useRoleEditorMessages();
  if (!canOpenUsers) return <span className="text-sm text-muted-foreground">{r.show.members(count)}</span>;
  return (
    <Link
      to={roleMembersHref(id)}
      className="inline-flex items-center gap-1 rounded-sm text-sm font-medium text-muted-foreground underline underline-offset-4 hover:text-foreground"
    >
      <Users aria-hidden="true" className="size-4" />
      {r.show.members(count)}
    </Link>
  );
}
