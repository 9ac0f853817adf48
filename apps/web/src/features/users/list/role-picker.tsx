import type { RoleOption } from '@app/contracts';
import { ConfirmDialog, NativeSelect } from '@app/ui';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useMessages } from '../../../i18n/messages';
import { useTRPC } from '../../../lib/trpc';
import { useCan } from '../../auth/use-session';
import type { RoleAction } from './user-actions';

type PickedRole = { id: number; name: string };

export interface RolePickerProps {
  count: number;
  roles: readonly PickedRole[] | undefined;
  action: RoleAction;
  onPick: (role: PickedRole) => void;
  onClose: () => void;
}

export function RolePicker({ action, count, roles, onPick, onClose }: RolePickerProps) {
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
