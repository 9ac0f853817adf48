import type { BulkRoleOperation, RoleOption, UsersListResult } from '@app/contracts';
import { ConfirmDialog, NativeSelect } from '@app/ui';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { type Messages, useMessages } from '../../../i18n/messages';
import type { BulkAskProps, BulkText } from '../../../lib/resource-list/bulk-actions';
import { useTRPC } from '../../../lib/trpc';
import { useCan } from '../../auth/use-session';
import type { UsersBulkOperation } from '../../../lib/users-query/users-list-state';

type AskProps = BulkAskProps<UsersBulkOperation, UsersListResult>;

/** A role action's words, with the role named. */
function roleText(m: Messages, action: BulkRoleOperation, role: string): BulkText {
  const r = m.usersList.bulk.role;
  return {
    verb: r.verb[action](role),
    title: (count) => r.title[action](count, role),
    description: r.description[action](role),
    affected: (count) => r.affected[action](count, role),
    confirm: (count) => r.confirm[action](count, role),
    done: (count) => r.done[action](count, role),
  };
}

/**
 * First step of "Add role…" / "Remove role…": choosing the role. The roles come with the
 * server's verdict (`GET /users/new`, read as `use-role-options` reads it: assignable or not, and
 * why) — the rule the bulk route applies — so those the caller may not give or take are shown
 * disabled and named. A caller who may not open the create form gets every role the list
 * answered with, and the check that follows says what is refused.
 */
function RolePicker({ action, count, data, onChoose, onClose }: AskProps & { action: BulkRoleOperation }) {
  const roles = data?.availableRoles;
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
      onConfirm={() =>
        picked &&
        onChoose({ operation: { operation: action, role_id: picked.id }, text: roleText(m, action, picked.name) })
      }
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

export const AddRoleStep = (props: AskProps) => <RolePicker action="addRole" {...props} />;
export const RemoveRoleStep = (props: AskProps) => <RolePicker action="removeRole" {...props} />;
