import { ConfirmDialog } from '@app/ui';
import { useState } from 'react';
import { useUserPagesMessages } from '../../../i18n/user-pages-messages';
import { useCan } from '../../auth/use-session';
import { type UserRef, useUserCommands } from './use-user-commands';

export type UserAction = 'activate' | 'deactivate' | 'delete' | 'restore' | 'forceDelete';

/**
 * One confirmation dialog for every action on a user: `ask(action)` opens it, the action runs
 * on confirm and the dialog closes when it is settled (or the page is left).
 */
export function useUserActionDialog(user: UserRef) {
  const m = useUserPagesMessages();
  const can = useCan();
  const commands = useUserCommands(user);
  const [action, setAction] = useState<UserAction | null>(null);
  const close = () => setAction(null);
  const a = m.userActions;

  const copy = {
    activate: { title: a.confirmActivateTitle(user.name), text: a.confirmActivate, label: a.activate, danger: false },
    deactivate: {
      title: a.confirmDeactivateTitle(user.name),
      text: a.confirmDeactivate,
      label: a.deactivate,
      danger: true,
    },
    delete: {
      title: a.confirmDeleteTitle(user.name),
      text: a.deleteDescription(can['users.restore']),
      label: a.delete,
      danger: true,
    },
    restore: { title: a.confirmRestoreTitle(user.name), text: a.confirmRestore, label: a.restore, danger: false },
    forceDelete: {
      title: a.confirmForceDeleteTitle(user.name),
      text: a.forceDeleteDescription,
      label: a.forceDelete,
      danger: true,
    },
  } satisfies Record<UserAction, { title: string; text: string; label: string; danger: boolean }>;

  const run: Record<UserAction, (done: () => void) => void> = {
    activate: commands.activate,
    deactivate: commands.deactivate,
    delete: commands.remove,
    restore: commands.restore,
    forceDelete: commands.forceDelete,
  };

  const current = action ? copy[action] : null;
  const dialog = (
    <ConfirmDialog
      open={action !== null}
      onOpenChange={(open) => (open ? undefined : close())}
      title={current?.title ?? ''}
      description={current?.text}
      confirmLabel={current?.label ?? ''}
      cancelLabel={m.common.cancel}
      tone={current?.danger ? 'danger' : 'primary'}
      pending={commands.pending}
      onConfirm={() => (action ? run[action](close) : undefined)}
    />
  );

  return { ask: setAction, dialog };
}
