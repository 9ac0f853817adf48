import type { UserItem } from '@app/contracts';
import { Button, buttonClassName, Card, CardHeader, CardTitle, cn } from '@app/ui';
import { ArchiveRestore, Pencil, Power, PowerOff } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useMessages } from '../../../i18n/messages';
import { useCan } from '../../auth/use-session';
import type { UserAction } from './use-user-action-dialog';

interface ActionsProps {
  user: UserItem;
  ask: (action: UserAction) => void;
}

/** The page's everyday actions; each only with its capability and for a record it applies to. */
export function UserHeaderActions({ user, ask }: ActionsProps) {
  const m = useMessages();
  const can = useCan();
  const a = m.userActions;
  if (user.deleted_at) {
    return can['users.restore'] ? (
      <Button onClick={() => ask('restore')}>
        <ArchiveRestore aria-hidden="true" />
        {a.restore}
      </Button>
    ) : null;
  }
  return (
    <>
      {can['users.setActive'] ? (
        <Button variant="secondary" onClick={() => ask(user.is_active ? 'deactivate' : 'activate')}>
          {user.is_active ? <PowerOff aria-hidden="true" /> : <Power aria-hidden="true" />}
          {user.is_active ? a.deactivate : a.activate}
        </Button>
      ) : null}
      {can['users.update'] ? (
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
 * Deleting, visibly apart from the rest. When the delete is not possible yet the button stays,
 * disabled, with the reason beside it (an active user must be deactivated first).
 */
export function UserDangerZone({
  user,
  ask,
  isSelf,
  className,
}: ActionsProps & { isSelf: boolean; className?: string }) {
  const m = useMessages();
  const can = useCan();
  const a = m.userActions;
  const canDelete = !user.deleted_at && can['users.delete'];
  const canForceDelete = Boolean(user.deleted_at) && can['users.forceDelete'];
  if (!canDelete && !canForceDelete) return null;

  const blocked = isSelf ? a.deleteBlockedSelf : user.is_active ? a.deleteBlockedActive : null;
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
