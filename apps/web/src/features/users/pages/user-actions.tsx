import type { UserShowItem } from '@app/contracts';
import { Button, buttonClassName, Card, CardHeader, CardTitle, cn } from '@app/ui';
import { ArchiveRestore, Pencil, Power, PowerOff } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useUserPagesMessages } from '../../../i18n/user-pages-messages';
import { useCan } from '../../auth/use-session';
import { isOffered, refusalOf } from '../action-state';
import type { UserAction } from './use-user-action-dialog';

interface ActionsProps {
  user: UserShowItem;
  ask: (action: UserAction) => void;
}

/**
 * The page's everyday actions, as the server decided them for this user: allowed, unavailable
 * with its reason (a rule or the privilege ceiling stands in the way), or absent (no permission,
 * or not for a record in this state).
 */
export function UserHeaderActions({ user, ask }: ActionsProps) {
  const m = useUserPagesMessages();
  const a = m.userActions;
  const { actions } = user;
  if (user.deleted_at) {
    return isOffered(actions.restore) ? (
      <Button unavailableReason={refusalOf(actions.restore)} onClick={() => ask('restore')}>
        <ArchiveRestore aria-hidden="true" />
        {a.restore}
      </Button>
    ) : null;
  }
  const editRefusal = refusalOf(actions.update);
  return (
    <>
      {isOffered(actions.setActive) ? (
        <Button
          variant="secondary"
          unavailableReason={refusalOf(actions.setActive)}
          onClick={() => ask(user.is_active ? 'deactivate' : 'activate')}
        >
          {user.is_active ? <PowerOff aria-hidden="true" /> : <Power aria-hidden="true" />}
          {user.is_active ? a.deactivate : a.activate}
        </Button>
      ) : null}
      {isOffered(actions.update) && editRefusal ? (
        <Button unavailableReason={editRefusal}>
          <Pencil aria-hidden="true" />
          {a.edit}
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

/**
 * Deleting, visibly apart from the rest. When a rule stops the delete (for example an active
 * user while only inactive ones may be deleted) the button stays, unavailable, with the server's
 * reason beside it; when the caller may not delete this user at all, there is no button.
 */
export function UserDangerZone({ user, ask, className }: ActionsProps & { className?: string }) {
  const m = useUserPagesMessages();
  const can = useCan();
  const a = m.userActions;
  const { actions } = user;
  const canDelete = !user.deleted_at && isOffered(actions.delete);
  const canForceDelete = Boolean(user.deleted_at) && isOffered(actions.forceDelete);
  if (!canDelete && !canForceDelete) return null;

  const blocked = refusalOf(actions.delete);
  const forceBlocked = refusalOf(actions.forceDelete);
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
              unavailableReason={blocked}
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
          description={forceBlocked ?? a.forceDeleteDescription}
          action={
            <Button
              variant="danger"
              unavailableReason={forceBlocked}
              aria-describedby="force-delete-user-help"
              onClick={() => ask('forceDelete')}
            >
              {a.forceDelete}
            </Button>
          }
        />
      ) : null}
    </Card>
  );
}
