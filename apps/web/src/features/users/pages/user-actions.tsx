import type { ActionState, UserShowItem } from '@app/contracts';
import { Button, buttonClassName, Card, CardHeader, CardTitle, cn } from '@app/ui';
import { ArchiveRestore, Pencil, Power, PowerOff } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useMessages } from '../../../i18n/messages';
import { useCan } from '../../auth/use-session';
import type { UserAction } from './use-user-action-dialog';

interface ActionsProps {
  user: UserShowItem;
  ask: (action: UserAction) => void;
}

/**
 * The page's everyday actions, each only when the server says the caller may take it on this
 * user (permission, record state, privilege ceiling, rules).
 */
export function UserHeaderActions({ user, ask }: ActionsProps) {
  const m = useMessages();
  const a = m.userActions;
  const { actions } = user;
  if (user.deleted_at) {
    return actions.restore.allowed ? (
      <Button onClick={() => ask('restore')}>
        <ArchiveRestore aria-hidden="true" />
        {a.restore}
      </Button>
    ) : null;
  }
  return (
    <>
      {actions.setActive.allowed ? (
        <Button variant="secondary" onClick={() => ask(user.is_active ? 'deactivate' : 'activate')}>
          {user.is_active ? <PowerOff aria-hidden="true" /> : <Power aria-hidden="true" />}
          {user.is_active ? a.deactivate : a.activate}
        </Button>
      ) : null}
      {actions.update.allowed ? (
        <Link to={`/users/${user.id}/edit`} className={buttonClassName()}>
          <Pencil aria-hidden="true" />
          {a.edit}
        </Link>
      ) : null}
    </>
  );
}

function DangerRow({
  id,
  title,
  description,
  action,
}: {
  id: string;
  title: string;
  description: string;
  action: ReactNode;
}) {
  return (
    <div className="flex flex-col gap-3 border-t border-danger/20 px-5 py-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="text-sm font-medium text-foreground">{title}</p>
        <p id={id} className="mt-0.5 text-sm text-pretty text-muted-foreground">
          {description}
        </p>
      </div>
      <div className="shrink-0">{action}</div>
    </div>
  );
}

/** Refusals that a step of the caller's own can lift (or that explain themselves): shown, not hidden. */
const EXPLAINED = new Set(['NOT_INACTIVE', 'SELF_DELETE', 'LAST_ADMIN']);

function deleteBlockedReason(state: ActionState, a: ReturnType<typeof useMessages>['userActions']): string | null {
  if (state.allowed) return null;
  if (state.code === 'NOT_INACTIVE') return a.deleteBlockedActive;
  if (state.code === 'SELF_DELETE') return a.deleteBlockedSelf;
  return state.message ?? null;
}

/**
 * Deleting, visibly apart from the rest. When a rule stops the delete for now (an active user
 * must be deactivated first) the button stays, disabled, with the reason beside it; when the
 * caller may not delete this user at all, there is no button.
 */
export function UserDangerZone({ user, ask, className }: ActionsProps & { className?: string }) {
  const m = useMessages();
  const can = useCan();
  const a = m.userActions;
  const { actions } = user;
  const canDelete = !user.deleted_at && (actions.delete.allowed || EXPLAINED.has(actions.delete.code ?? ''));
  const canForceDelete = Boolean(user.deleted_at) && actions.forceDelete.allowed;
  if (!canDelete && !canForceDelete) return null;

  const blocked = deleteBlockedReason(actions.delete, a);
  return (
    <Card aria-labelledby="danger-zone-title" className={cn('overflow-hidden border-danger/30', className)}>
      <CardHeader className="pb-4">
        <CardTitle id="danger-zone-title">{a.dangerZone}</CardTitle>
      </CardHeader>
      {canDelete ? (
        <DangerRow
          id="delete-user-help"
          title={a.deleteTitle}
          description={blocked ?? a.deleteDescription(can['users.restore'])}
          action={
            <Button
              variant="danger"
              disabled={blocked !== null}
              aria-describedby="delete-user-help"
              onClick={() => ask('delete')}
            >
              {a.delete}
            </Button>
          }
        />
      ) : null}
      {canForceDelete ? (
        <DangerRow
          id="force-delete-user-help"
          title={a.forceDeleteTitle}
          description={a.forceDeleteDescription}
          action={
            <Button variant="danger" aria-describedby="force-delete-user-help" onClick={() => ask('forceDelete')}>
              {a.forceDelete}
            </Button>
          }
        />
      ) : null}
    </Card>
  );
}
