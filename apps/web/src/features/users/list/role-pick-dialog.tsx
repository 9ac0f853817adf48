import { lazy, Suspense, useState } from 'react';
import { type BulkBarAction, type BulkCommand, isRoleAction, type RoleAction } from './user-actions';

// The picker loads when first asked for: the users list's own bundle stays within its budget.
const RolePicker = lazy(() => import('./role-picker').then((m) => ({ default: m.RolePicker })));

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
    <Suspense fallback={null}>
      <RolePicker action={flow.action} count={count} roles={roles} onPick={flow.onPick} onClose={flow.onClose} />
    </Suspense>
  ) : null;
}
