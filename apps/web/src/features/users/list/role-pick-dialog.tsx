import type { RoleOption } from '@app/contracts';
import { ConfirmDialog, NativeSelect } from '@app/ui';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useMessages } from '../../../i18n/messages';
import { useTRPC } from '../../../lib/trpc';
import { useCan } from '../../auth/use-session';
import { type BulkBarAction, type BulkCommand, isRoleAction, type RoleAction } from './user-actions';

type PickedRole = { id: number; name: string };

/** The selection bar's actions: a role action asks for its role first, then every action goes to `run`. */
export function useRolePick(run: (command: BulkCommand) => void) {
  const [action, setAction] = useState<RoleAction | null>(null);
  return {
    action,
    onAction: (next: BulkBarAction) => (isRoleAction(next) ? setAction(next) : run({ action: next })),
    onClose: () => setAction(null),
    onPick: (role: PickedRole) => {
      setAction(null);
      if (action) run({ action, role });
    },
  };
}

export interface RolePickDialogProps {
  /** The role action being set up (nothing is shown without one), and what to do with the choice. */
  flow: Omit<ReturnType<typeof useRolePick>, 'onAction'>;
  /** How many users it is for (the selection, or every match). */
  count: number;
  /** Every role, as the list answered: what is offered when the server's verdicts are not available. */
  roles: readonly PickedRole[] | undefined;
}

/**
 * First step of "Add role…" / "Remove role…": choosing the role. The roles come with the
 * server's verdict (`GET /users/new`, read as `use-role-options` reads it: assignable or not, and
 * why) — the rule the bulk route applies — so those the caller may not give or take are shown
 * disabled and named. A caller who may not open the create form gets every role, and the check
 * that follows says what is refused.
 */
export function RolePickDialog({ flow, count, roles }: RolePickDialogProps) {
  return flow.action ? (
    <RolePicker action={flow.action} count={count} roles={roles} onPick={flow.onPick} onClose={flow.onClose} />
  ) : null;
}

interface RolePickerProps extends Omit<RolePickDialogProps, 'flow'> {
  action: RoleAction;
  onPick: (role: PickedRole) => void;
  onClose: () => void;
}

function RolePicker({ action, count, roles, onPick, onClose }: RolePickerProps) {
  const m = useMessages();
  const t = m.usersList.bulk;
  const id = useId();
  const trpc = useTRPC();
  // The create form's query: only asked by a caller who may open that form (users.create).
  const verdicts = useQuery({ ...trpc.users.new.queryOptions(), enabled: useCan()['users.create'], retry: false });
  const [chosen, setChosen] = useState('');
  const options: RoleOption[] | undefined =
    verdicts.data?.options.roles ??
    (verdicts.isPending && verdicts.fetchStatus !== 'idle'
      ? undefined
      : roles?.map((r) => ({ ...r, assignable: true })));
  const unavailable = (options ?? []).filter((o) => !o.assignable);
  const picked = options?.find((o) => String(o.id) === chosen && o.assignable);

  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={t.role.pickTitle[action](count)}
      description={t.role.pickDescription[action]}
      confirmLabel={t.role.next}
      cancelLabel={t.cancel}
      confirmDisabled={!picked}
      onConfirm={() => picked && onPick({ id: picked.id, name: picked.name })}
    >
      <div className="space-y-2">
        <label htmlFor={id} className="block text-sm font-medium text-foreground">
          {t.role.label}
        </label>
        <NativeSelect
          id={id}
          value={chosen}
          disabled={!options}
          onChange={(event) => setChosen(event.target.value)}
          aria-describedby={unavailable.length > 0 ? `${id}-hint` : undefined}
        >
          <option value="">{options ? t.role.placeholder : t.role.loading}</option>
          {(options ?? []).map((option) => (
            <option key={option.id} value={option.id} disabled={!option.assignable} title={option.reason}>
              {option.name}
            </option>
          ))}
        </NativeSelect>
        {unavailable.length > 0 ? (
          <p id={`${id}-hint`} className="text-sm text-muted-foreground">
            {t.role.unavailable(unavailable.map((o) => o.name).join(', '))}
          </p>
        ) : null}
      </div>
    </ConfirmDialog>
  );
}
