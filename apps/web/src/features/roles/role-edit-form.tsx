import type { PermissionRow, RoleItem, RoleShowResult } from '@app/contracts';
import { ConflictBanner, type ConflictState } from '../../components/conflict-banner';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from '../../lib/toast';
import { useMessages } from '../../i18n/messages';
import { useRoleEditorMessages } from '../../i18n/role-editor-messages';
import { apiErrorCode, apiErrorMessage } from '../../lib/api-error';
import { useTRPC } from '../../lib/trpc';
import { useLeaveBack } from '../../lib/use-leave-back';
import { ROLE_FORM_FIELDS, RoleForm, type RoleFormValues, toRoleFormValues, useRoleForm } from './role-form';

export interface RoleEditFormProps {
  item: RoleItem;
  catalogue: readonly PermissionRow[];
  /** Reads the role again and returns the latest (throws when that fails). */
  refetchLatest: () => Promise<RoleShowResult | undefined>;
}

const sameValues = (a: RoleFormValues, b: RoleFormValues) =>
  a.name === b.name &&
  a.description.trim() === b.description.trim() &&
  a.require_two_factor === b.require_two_factor &&
  [...a.permissions].sort().join() === [...b.permissions].sort().join();

/** The edit form: saves with the version it was read at; a 409 offers the latest version instead. */
export function RoleEditForm({ item, catalogue, refetchLatest }: RoleEditFormProps) {
  const m = useMessages();
  const r = useRoleEditorMessages();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const cancel = useLeaveBack(`/roles/${item.id}`);
  const form = useRoleForm(toRoleFormValues(item));
  // What the form was read at: the version a save sends, and the set the impact is measured from.
  const [base, setBase] = useState(item);
  const [conflict, setConflict] = useState<ConflictState>(null);
  const [reloading, setReloading] = useState(false);
  const draft = useRef<RoleFormValues | null>(null);
  const update = useMutation(trpc.roles.update.mutationOptions());

  const save = async (input: Parameters<typeof update.mutateAsync>[0]) => {
    try {
      await update.mutateAsync(input);
    } catch (error) {
      if (apiErrorCode(error) !== 'VERSION_CONFLICT') throw error;
      draft.current = form.getValues();
      setConflict({ stage: 'detected', message: apiErrorMessage(error, m) });
      return false;
    }
    setConflict(null);
    toast.success(r.form.saved);
    void navigate(`/roles/${item.id}`, { replace: true });
    // Stale, not refetched now: the page being left would only redraw under the navigation.
    void queryClient.invalidateQueries({ ...trpc.roles.pathFilter(), refetchType: 'none' });
    void queryClient.invalidateQueries({ ...trpc.permissions.pathFilter(), refetchType: 'none' });
    return true;
  };

  const reload = async () => {
    setReloading(true);
    try {
      const latest = (await refetchLatest())?.item;
      if (!latest) return;
      const mine = draft.current ?? form.getValues();
      const latestValues = toRoleFormValues(latest);
      const hasDraft = !sameValues(mine, latestValues);
      form.reset(latestValues);
      setBase(latest);
      draft.current = hasDraft ? mine : null;
      setConflict({ stage: 'reloaded', hasDraft });
    } catch (error) {
      toast.error(apiErrorMessage(error, m));
    } finally {
      setReloading(false);
    }
  };

  const reapply = () => {
    const mine = draft.current;
    if (mine) for (const field of ROLE_FORM_FIELDS) form.setValue(field, mine[field], { shouldDirty: true });
    draft.current = null;
    setConflict(null);
  };

  return (
    <RoleForm
      form={form}
      catalogue={catalogue}
      role={{
        id: base.id,
        permissions: (base.permissions ?? []).map((permission) => permission.name),
        requireTwoFactor: base.require_two_factor,
      }}
      submitLabel={r.form.save}
      onCancel={cancel}
      onSubmit={(input) => save({ id: item.id, ...input, version: base.version })}
      notices={
        conflict ? (
          <ConflictBanner
            conflict={conflict}
            strings={r.form.conflict}
            reloading={reloading}
            onReload={() => void reload()}
            onReapply={reapply}
            onDiscard={() => {
              draft.current = null;
              setConflict(null);
            }}
          />
        ) : undefined
      }
    />
  );
}
